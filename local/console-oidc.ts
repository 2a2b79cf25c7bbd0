import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Configuration, errors as OidcErrors } from 'oidc-provider';
import { oidcAdapter } from './console-oidc-store';
import { LoginThrottle } from './login-throttle';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK, type JWTPayload } from 'jose';

// The local stand-in for Cognito's hosted sign-in: an OpenID Connect provider (panva's
// oidc-provider, certified) with the demo users, authorization code with PKCE for the console's
// public client, and JWT access tokens for the console's API audience. Only the login form is ours.

export const CONSOLE_CLIENT_ID = 'console';
export const CONSOLE_AUDIENCE = 'urn:phone-validation:console';
export const CONSOLE_SCOPE = 'openid email console';

export interface ConsoleLogin {
  userId: string;
  email: string;
  password: string;
}

export interface OidcKeys {
  signing: JWK;
  cookie: string;
}

export async function newOidcKeys(): Promise<OidcKeys> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { signing: { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }, cookie: randomBytes(32).toString('hex') };
}

export interface ConsoleOidc {
  issuer: string;
  /** Answers /oidc/* and returns true; false for anything else. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** What API Gateway's JWT authorizer checks: signature, issuer, audience, expiry. */
  verifyAccessToken(token: string): Promise<JWTPayload>;
}

/** How long access and ID tokens last, as Cognito's app client (lib/console-construct.ts). */
export const CONSOLE_TOKEN_SECONDS = 3600;
/** How long a sign-in lasts through renewals: the refresh token's life, as Cognito's client. */
export const CONSOLE_SESSION_SECONDS = 8 * 3600;

export function startConsoleOidc(options: {
  origin: string;
  logins: ConsoleLogin[];
  keys: OidcKeys;
  sessionsFile?: string | null;
  throttle?: LoginThrottle;
  /** Access and ID token life (CONSOLE_TOKEN_SECONDS unless set: tests shorten it to see renewal). */
  tokenSeconds?: number;
}): ConsoleOidc {
  const tokenSeconds = options.tokenSeconds ?? CONSOLE_TOKEN_SECONDS;
  const issuer = `${options.origin}/oidc`;
  const byId = new Map(options.logins.map((l) => [l.userId, l]));
  const throttle = options.throttle ?? new LoginThrottle();
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = options.keys.signing;
  const jwks = createLocalJWKSet({ keys: [publicJwk] });
  const configuration: Configuration = {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        redirect_uris: [`${options.origin}/callback`],
        post_logout_redirect_uris: [`${options.origin}/`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    adapter: oidcAdapter(options.sessionsFile ?? null),
    // The console is served from the provider's own origin; no other origin may call it from a browser.
    clientBasedCORS: (_ctx, origin) => origin === options.origin,
    jwks: { keys: [options.keys.signing] },
    cookies: { keys: [options.keys.cookie] },
    claims: { openid: ['sub'], email: ['email'] },
    scopes: ['openid', 'email'],
    findAccount: async (_ctx, id) => {
      // `logins` may grow while running (a member invited: local/console-invites.ts).
      const login = byId.get(id) ?? options.logins.find((l) => l.userId === id);
      return login ? { accountId: id, claims: async () => ({ sub: id, email: login.email }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    // The console renews its tokens with a refresh token (web/src/auth.ts), as with Cognito: issued
    // with every code (no offline_access: it ends with the provider's session), never rotated (as
    // Cognito's; a rotated token used twice, by a duplicated tab, would end the grant).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => false,
    features: {
      devInteractions: { enabled: false },
      // The provider's stock sign-out pages load web fonts from the internet; these are ours, with
      // nothing from outside. Signing out asks nothing (as Cognito's /logout): the page posts the
      // provider's own form (its xsrf value, `logout=yes`: every session of the browser ends) at once.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          const nonce = randomBytes(16).toString('base64');
          const confirm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>');
          ctx.type = 'html';
          ctx.set(pageHeaders(nonce, true));
          ctx.body = page('Signing out', `<h1>Signing out…</h1>${confirm}<script nonce="${nonce}">document.forms[0].submit()</script>`, nonce);
        },
        postLogoutSuccessSource: async (ctx) => {
          const nonce = randomBytes(16).toString('base64');
          ctx.type = 'html';
          ctx.set(pageHeaders(nonce, false));
          ctx.body = page('Signed out', '<h1>Signed out</h1><p><a href="/">Back to the console</a></p>', nonce);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => CONSOLE_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== CONSOLE_AUDIENCE) throw new oidcErrors!.InvalidTarget();
          return { scope: 'console', audience: CONSOLE_AUDIENCE, accessTokenTTL: tokenSeconds, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    ttl: {
      AccessToken: tokenSeconds,
      IdToken: tokenSeconds,
      RefreshToken: CONSOLE_SESSION_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: CONSOLE_SESSION_SECONDS,
      Grant: CONSOLE_SESSION_SECONDS,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<h1>Sign-in error</h1><p>${escape(String(out.error_description ?? out.error))}</p><p><a href="/">Back to the console</a></p>`);
    },
  };
  // The provider (and its Koa stack, ~200 ms of loading) is loaded at the first sign-in request, not
  // at start: most runtimes (tests, crash children, a server nobody signs in to) never need it.
  let oidcErrors: typeof OidcErrors | null = null;
  let loaded: Promise<{ provider: Provider; callback: ReturnType<Provider['callback']> }> | null = null;
  const load = () =>
    (loaded ??= import('oidc-provider').then((module) => {
      oidcErrors = module.errors;
      const provider = new module.default(issuer, configuration);
      return { provider, callback: provider.callback() };
    }));

  async function interaction(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { provider } = await load();
    const details = await provider.interactionDetails(req, res);
    const uid = details.uid;
    if (req.method === 'POST' && url.pathname.endsWith('/login')) {
      const form = new URLSearchParams((await readSmall(req)).toString('utf8'));
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const address = req.socket.remoteAddress ?? 'unknown';
      const now = Date.now();
      // Checked before the password: while refused, a right guess is refused too.
      const verdict = throttle.check(email, address, now);
      if (!verdict.allowed) {
        const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
        const message = `Too many failed sign-ins ${verdict.reason === 'account' ? 'for this account' : 'from this address'}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
        return html(res, 429, loginPage(uid, email, message), { 'retry-after': String(verdict.retryAfterSeconds) });
      }
      const login = options.logins.find((l) => l.email.toLowerCase() === email);
      if (!login || !sameSecret(form.get('password') ?? '', login.password)) {
        throttle.failed(email, address, now);
        return html(res, 401, loginPage(uid, email, 'Wrong email or password.'));
      }
      throttle.succeeded(email);
      await provider.interactionFinished(req, res, { login: { accountId: login.userId } }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'login') return html(res, 200, loginPage(uid, '', null));
    // The console is the provider's only client and first-party: consent is implied by signing in.
    const { accountId } = details.session ?? {};
    if (!accountId) return html(res, 400, page('Sign-in error', '<p>Session expired. <a href="/">Start again</a></p>'));
    const grant = details.grantId ? (await provider.Grant.find(details.grantId))! : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    async handle(req, res, url) {
      if (url.pathname !== '/oidc' && !url.pathname.startsWith('/oidc/')) return false;
      if (url.pathname.startsWith('/oidc/interaction/')) {
        try {
          await interaction(req, res, url);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          html(res, 400, page('Sign-in error', `<h1>Sign-in error</h1><p>${escape(message)}</p><p><a href="/">Start again</a></p>`));
        }
        return true;
      }
      // Mounted under /oidc: the provider derives its endpoints' paths from originalUrl (as Express sets it).
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = req.url!.slice('/oidc'.length) || '/';
      const { callback } = await load();
      await new Promise<void>((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
        void callback(req, res);
      });
      return true;
    },
    async verifyAccessToken(token) {
      // A token must expire, as API Gateway's JWT authorizer requires (`exp` after the current time).
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: CONSOLE_AUDIENCE, algorithms: ['RS256'], requiredClaims: ['exp'] });
      return payload;
    },
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readSmall(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, nonce = randomBytes(16).toString('base64')): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f6fa;color:#1b2330}main{max-width:24rem;margin:10vh auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}label{display:block;margin-top:1rem;font-weight:600}input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #8a94a6;border-radius:4px}button{margin-top:1.5rem;width:100%;padding:.7rem;font:inherit;font-weight:600;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.error{color:#b91c1c;font-weight:600}</style></head>
<body data-nonce="${nonce}"><main>${body}</main></body></html>`;
}

function loginPage(uid: string, email: string, error: string | null): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1><p>Phone validation console (local identity provider)</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/oidc/interaction/${escape(uid)}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escape(email)}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  );
}

/** The headers of the provider's own pages: nothing loads but their nonce'd style (and script, when one). */
function pageHeaders(nonce: string, script: boolean): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}';${script ? ` script-src 'nonce-${nonce}';` : ''} form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

function html(res: ServerResponse, status: number, body: string, extraHeaders: Record<string, string> = {}): void {
  const nonce = /data-nonce="([^"]+)"/.exec(body)?.[1] ?? '';
  res.writeHead(status, { ...extraHeaders, 'content-type': 'text/html; charset=utf-8', ...pageHeaders(nonce, false) });
  res.end(body);
}
