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
// sessions survive restarts. The passwords are local demo credentials, printed by the `npm start`
// that creates them (not by every start: secrets in every start's log), and shown again by
// `npm run admin -- console-passwords`; in AWS, Cognito holds the users.

const OWNER_EMAIL = 'demo@example.com';
const MEMBER_EMAIL = 'member@example.com';

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
  /** The passwords (and keys) were made by this start: the only start that prints them. */
  created: boolean;
}

export async function ensureConsoleAccounts(demo: DemoAccount, dataDir: string | null): Promise<ConsoleAccounts> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: SEED_KEY }));
  let memberId = existing.Item?.member_user_id as string | undefined;
  if (!memberId) {
    const member = await createUser(MEMBER_EMAIL);
    await addMember(demo.organizationId, member.id, 'member');
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...SEED_KEY, ...stamp('LocalConsoleSeed'), member_user_id: member.id, created_at: nowIso() } }));
    memberId = member.id;
  }
  const { secrets, created } = await loadSecrets(dataDir);
  return {
    owner: { userId: demo.userId, email: OWNER_EMAIL, password: secrets.passwords.owner! },
    member: { userId: memberId, email: MEMBER_EMAIL, password: secrets.passwords.member! },
    keys: secrets.keys,
    sessionsFile: dataDir ? join(dataDir, 'console-oidc-sessions.json') : null,
    dataDir,
    created,
  };
}

/** The demo sign-ins kept in the data folder (`npm run admin -- console-passwords`), or why there are none. */
export function savedConsoleSignIns(dataDir: string): { owner: { email: string; password: string }; member: { email: string; password: string } } {
  const file = join(dataDir, 'console-oidc.json');
  let saved: ConsoleSecrets | null = null;
  try {
    saved = parseSaved(readFileSync(file, 'utf8'));
  } catch {
    // not there
  }
  if (!saved) throw new Error(`${file} holds no console sign-ins: \`npm start\` creates them, and prints them, at its next start`);
  return { owner: { email: OWNER_EMAIL, password: saved.passwords.owner! }, member: { email: MEMBER_EMAIL, password: saved.passwords.member! } };
}

/** The keys and passwords a console-oidc.json holds; null when it holds none (empty, damaged). */
function parseSaved(text: string): ConsoleSecrets | null {
  try {
    const saved = JSON.parse(text) as ConsoleSecrets;
    return saved.keys?.signing && saved.keys.cookie && saved.passwords?.owner && saved.passwords.member ? saved : null;
  } catch {
    return null;
  }
}

const password = () => randomBytes(9).toString('base64url');

/**
 * The console's keys and demo passwords, from DATA_DIR/console-oidc.json, created when it is not
 * there. A file that holds none (empty, or damaged) is replaced with a WARN saying what that costs:
 * everyone is signed out of the console and the demo passwords change (this start prints the new
 * ones); no data and no invited member's sign-in depends on it, so nothing is lost or locked out.
 */
export async function loadSecrets(dataDir: string | null): Promise<{ secrets: ConsoleSecrets; created: boolean }> {
  const file = dataDir ? join(dataDir, 'console-oidc.json') : null;
  let found: string | undefined;
  if (file) {
    try {
      found = readFileSync(file, 'utf8');
    } catch {
      // not created yet
    }
    const saved = found === undefined ? null : parseSaved(found);
    if (saved) return { secrets: saved, created: false };
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
  return { secrets, created: true };
}
