import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logger } from '../lambdas/platform/logger';
import type { MemberInviter } from '../lambdas/console/member-inviter';
import type { ConsoleLogin } from './console-oidc';

// The local runtime's answer to "invite a member" (docs/console.md, "Inviting members"): the embedded
// sign-in provider gets a login for the new user with a generated password. Nothing sends mail
// here, so the password and the sign-in address are shown once to the inviting owner and written
// to the runtime's log, for the owner to pass on. With a data folder the logins are kept in
// DATA_DIR/console-invites.json (mode 600, as the demo passwords are), so a restart keeps them.

const file = (dataDir: string | null) => (dataDir ? join(dataDir, 'console-invites.json') : null);

/**
 * The members invited before this start (none without a data folder, or before the first
 * invitation). A file that cannot be read as invitations (a hand edit, a damaged disk) is moved
 * aside to `console-invites.json.damaged-<time>`, never overwritten by the next invitation, with a
 * WARN naming both: the members it held cannot sign in until it is mended and moved back.
 */
export function loadInvitedLogins(dataDir: string | null): ConsoleLogin[] {
  const path = file(dataDir);
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const saved = parseInvitations(text);
  if (saved) return saved;
  const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, aside);
  logger.warn('console: the invited members file could not be read and was moved aside; the members it held cannot sign in until it is mended and moved back (stop the service first)', { file: path, moved_to: aside });
  return [];
}

/** The logins a file holds, or null when it is not a list of whole logins. */
export function parseInvitations(text: string): ConsoleLogin[] | null {
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(saved)) return null;
  const whole = (l: unknown): l is ConsoleLogin => {
    const login = l as Partial<ConsoleLogin> | null;
    return !!login && typeof login.userId === 'string' && typeof login.email === 'string' && typeof login.password === 'string';
  };
  return saved.every(whole) ? saved : null;
}

/**
 * Adds each invited member to `logins` (the list the provider signs people in from) and to the
 * file; `origin` is where the console is served, `log` where the invitation is written.
 */
export function localMemberInviter(options: { logins: ConsoleLogin[]; dataDir: () => string | null; origin: () => string; log: (line: string) => void }): MemberInviter {
  return {
    async invite(user) {
      const login: ConsoleLogin = { userId: user.id, email: user.email, password: randomBytes(9).toString('base64url') };
      options.logins.push(login);
      const dataDir = options.dataDir();
      const path = file(dataDir);
      if (dataDir && path) {
        mkdirSync(dataDir, { recursive: true });
        const invited = [...loadInvitedLogins(dataDir), login];
        writeFileSync(`${path}.tmp`, JSON.stringify(invited), { mode: 0o600 });
        renameSync(`${path}.tmp`, path);
      }
      const signInUrl = `${options.origin()}/`;
      options.log(`console: ${user.email} invited as a member; sign in at ${signInUrl} with ${user.email} and the password ${login.password} (local runtime: no mail is sent)`);
      return { delivery: 'shown', sign_in_url: signInUrl, temporary_password: login.password };
    },
  };
}
