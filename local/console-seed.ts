import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lambdas/platform/table';
import { addMember, createUser } from '../lambdas/admin/admin';
import { nowIso } from '../lambdas/platform/clock';
import { newOidcKeys, type ConsoleLogin, type OidcKeys } from './console-oidc';
import type { DemoAccount } from './seed';
import { stamp } from '../lambdas/platform/table-entities';
import { logger } from '../lambdas/platform/logger';

// The console's local sign-in: the demo owner (the seeded demo user) and a member of the demo
// organization, with passwords and the provider's keys in DATA_DIR/console-oidc.json (mode 600), and
// the provider's sessions in DATA_DIR/console-oidc-sessions.json (mode 600), so sign-ins and
// sessions survive restarts. The passwords are local demo credentials, printed by
// `npm start`; in AWS, Cognito holds the users.

const SEED_KEY = { pk: 'LOCAL#CONSOLE', sk: 'META' };

export interface ConsoleSecrets {
  keys: OidcKeys;
  passwords: Record<string, string>;
}

export interface ConsoleAccounts {
  owner: ConsoleLogin;
  member: ConsoleLogin;
  keys: OidcKeys;
  /** Where the provider keeps its sessions; null (no data folder): in memory only. */
  sessionsFile: string | null;
  /** The data folder (invited members' logins are kept there: local/console-invites.ts); null: in memory only. */
  dataDir: string | null;
}

export async function ensureConsoleAccounts(demo: DemoAccount, dataDir: string | null): Promise<ConsoleAccounts> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: SEED_KEY }));
  let memberId = existing.Item?.member_user_id as string | undefined;
  if (!memberId) {
    const member = await createUser('member@example.com');
    await addMember(demo.organizationId, member.id, 'member');
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...SEED_KEY, ...stamp('LocalConsoleSeed'), member_user_id: member.id, created_at: nowIso() } }));
    memberId = member.id;
  }
  const secrets = await loadSecrets(dataDir);
  return {
    owner: { userId: demo.userId, email: 'demo@example.com', password: secrets.passwords.owner! },
    member: { userId: memberId, email: 'member@example.com', password: secrets.passwords.member! },
    keys: secrets.keys,
    sessionsFile: dataDir ? join(dataDir, 'console-oidc-sessions.json') : null,
    dataDir,
  };
}

const password = () => randomBytes(9).toString('base64url');

/**
 * The console's keys and demo passwords, from DATA_DIR/console-oidc.json, created when it is not
 * there. A file that holds none (empty, or damaged) is replaced with a WARN saying what that costs:
 * everyone is signed out of the console and the demo passwords change (this start prints the new
 * ones); no data and no invited member's sign-in depends on it, so nothing is lost or locked out.
 */
export async function loadSecrets(dataDir: string | null): Promise<ConsoleSecrets> {
  const file = dataDir ? join(dataDir, 'console-oidc.json') : null;
  let found: string | undefined;
  if (file) {
    try {
      found = readFileSync(file, 'utf8');
    } catch {
      // not created yet
    }
    try {
      const saved = JSON.parse(found ?? '') as ConsoleSecrets;
      if (saved.keys?.signing && saved.keys.cookie && saved.passwords?.owner && saved.passwords.member) return saved;
    } catch {
      // none, or unreadable: made new below
    }
  }
  const secrets: ConsoleSecrets = { keys: await newOidcKeys(), passwords: { owner: password(), member: password() } };
  if (file) {
    mkdirSync(dataDir!, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(secrets), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }
  if (found !== undefined) {
    logger.warn(
      `${file} ${found.trim() === '' ? 'was empty' : 'held no console keys and passwords'}: new ones were generated. Everyone signed in to the web console is signed out, and the demo owner's and member's passwords changed (this start prints the new ones); invited members' sign-ins and all data are unaffected`,
      { file },
    );
  }
  return secrets;
}
