import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { renewInSeconds, retryInSeconds } from './renewal';

// OpenID Connect, authorization code with PKCE (oidc-client-ts does the PKCE and state checks).
// The access token lives in this tab's sessionStorage and is sent as a Bearer header: no cookie
// carries authority to the console's API, so a cross-site request has nothing to ride on.
// Tokens are renewed before they expire with the refresh token (the refresh token grant: the local
// provider, and Cognito's token endpoint in AWS), so a session lasts as long as the provider's.

export interface ConsoleConfig {
  authority: string;
  client_id: string;
  scope: string;
  /** Cognito's /logout (AWS): its discovery names no end_session_endpoint. Absent locally. */
  logout_endpoint?: string;
  /** Cognito's /oauth2/revoke (AWS), where the refresh token is revoked on sign-out. */
  revocation_endpoint?: string;
}

let manager: UserManager | null = null;
let settings: ConsoleConfig | null = null;

export async function loadAuth(): Promise<UserManager> {
  const res = await fetch('/console/config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`The console's configuration could not be loaded (${res.status})`);
  const config = (await res.json()) as ConsoleConfig;
  settings = config;
  manager = new UserManager({
    ...(config.revocation_endpoint ? { metadataSeed: { revocation_endpoint: config.revocation_endpoint } } : {}),
    authority: config.authority,
    client_id: config.client_id,
    scope: config.scope,
    redirect_uri: `${location.origin}/callback`,
    post_logout_redirect_uri: `${location.origin}/`,
    response_type: 'code',
    loadUserInfo: false,
    // Renewed by the timer below (renewInSeconds), not oidc-client-ts's fixed minute-before rule.
    automaticSilentRenew: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  manager.events.addUserLoaded(scheduleRenewal);
  manager.events.addUserUnloaded(() => clearTimeout(renewTimer));
  void manager.getUser().then(scheduleRenewal);
  return manager;
}

let renewTimer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<User | null> | null = null;

/** Renews a signed-in user's tokens before they expire (each renewal loads a user: scheduled again). */
function scheduleRenewal(user: User | null): void {
  clearTimeout(renewTimer);
  if (!user?.refresh_token) return;
  renewTimer = setTimeout(() => void renewOrRetry(), renewInSeconds(user.expires_in) * 1000);
}

async function renewOrRetry(): Promise<void> {
  if (await renew()) return;
  const retry = retryInSeconds((await auth().getUser())?.expires_in);
  if (retry !== null) renewTimer = setTimeout(() => void renewOrRetry(), retry * 1000);
}

/**
 * One refresh token grant at a time (the timer, and a page that found its token expired after the
 * computer slept, may ask together). Null when it failed: the provider's session ended, or no network.
 */
function renew(): Promise<User | null> {
  renewing ??= auth()
    .signinSilent()
    .catch(() => null)
    .finally(() => (renewing = null));
  return renewing;
}

export function auth(): UserManager {
  if (!manager) throw new Error('auth not loaded');
  return manager;
}

/** The signed-in user with a token that holds: renewed first if it has expired; null if it cannot be. */
export async function currentUser(): Promise<User | null> {
  const user = await auth().getUser();
  if (!user) return null;
  if (!user.expired) return user;
  if (!user.refresh_token) return null;
  const renewed = await renew();
  return renewed && !renewed.expired ? renewed : null;
}

export async function signIn(returnTo: string): Promise<void> {
  await auth().signinRedirect({ state: { returnTo } });
}

/** Finishes a sign-in on /callback; returns where the user was going. */
export async function completeSignIn(): Promise<string> {
  const user = await auth().signinRedirectCallback();
  const state = user.state as { returnTo?: string } | undefined;
  return state?.returnTo && state.returnTo.startsWith('/') && !state.returnTo.startsWith('//') ? state.returnTo : '/';
}

/**
 * Ends the session here and at the identity provider, then comes back to the sign-in page, with no
 * question asked and no page from elsewhere: Cognito's /logout (AWS) or the local provider's
 * end-session endpoint, whose page posts its own form at once (local/console-oidc.ts).
 */
export async function signOut(): Promise<void> {
  const user = await auth().getUser();
  const config = settings!;
  if (config.revocation_endpoint && user?.refresh_token) await auth().revokeTokens(['refresh_token']).catch(() => undefined);
  await auth().removeUser();
  if (config.logout_endpoint) {
    location.assign(`${config.logout_endpoint}?${new URLSearchParams({ client_id: config.client_id, logout_uri: `${location.origin}/` }).toString()}`);
    return;
  }
  await auth().signoutRedirect({ id_token_hint: user?.id_token });
}
