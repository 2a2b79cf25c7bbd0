import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';

// OpenID Connect, authorization code with PKCE (oidc-client-ts does the PKCE and state checks).
// The access token lives in this tab's sessionStorage and is sent as a Bearer header: no cookie
// carries authority to the console's API, so a cross-site request has nothing to ride on.

export interface ConsoleConfig {
  authority: string;
  client_id: string;
  scope: string;
}

let manager: UserManager | null = null;

export async function loadAuth(): Promise<UserManager> {
  const res = await fetch('/console/config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`The console's configuration could not be loaded (${res.status})`);
  const config = (await res.json()) as ConsoleConfig;
  manager = new UserManager({
    authority: config.authority,
    client_id: config.client_id,
    scope: config.scope,
    redirect_uri: `${location.origin}/callback`,
    post_logout_redirect_uri: `${location.origin}/`,
    response_type: 'code',
    loadUserInfo: false,
    automaticSilentRenew: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  return manager;
}

export function auth(): UserManager {
  if (!manager) throw new Error('auth not loaded');
  return manager;
}

export async function currentUser(): Promise<User | null> {
  const user = await auth().getUser();
  return user && !user.expired ? user : null;
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

export async function signOut(): Promise<void> {
  const user = await auth().getUser();
  await auth().removeUser();
  await auth().signoutRedirect({ id_token_hint: user?.id_token });
}
