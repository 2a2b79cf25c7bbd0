import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemberInviter } from '../lambdas/console/member-inviter';
import type { ConsoleLogin } from './console-oidc';

// The local runtime's answer to "invite a member" (docs/console.md, "Inviting members"): the embedded
// sign-in provider gets a login for the new user with a generated password. Nothing sends mail
// here, so the password and the sign-in address are shown once to the inviting owner and written
// to the runtime's log, for the owner to pass on. With a data folder the logins are kept in
// DATA_DIR/console-invites.json (mode 600, as the demo passwords are), so a restart keeps them.

const file = (dataDir: string | null) => (dataDir ? join(dataDir, 'console-invites.json') : null);

/** The members invited before this start (none without a data folder, or before the first invitation). */
export function loadInvitedLogins(dataDir: string | null): ConsoleLogin[] {
  const path = file(dataDir);
  if (!path) return [];
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as ConsoleLogin[];
    return Array.isArray(saved) ? saved.filter((l) => l && typeof l.userId === 'string' && typeof l.email === 'string' && typeof l.password === 'string') : [];
  } catch {
    return [];
  }
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
