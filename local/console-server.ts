import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { consoleApi as consoleApiFor } from '../lambdas/functions/http/console-api';
import type { Ports } from '../lambdas/composition/ports';
import { withLogContext } from '../lambdas/platform/logger';
import { toEvent } from './api-gateway-server';
import { send } from './http-answers';
import { hasBody, type RequestBodies } from './request-bodies';
import type { Tenant } from './tenant-budgets';
import { consolePrincipal } from '../lambdas/console/principal';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPE, startConsoleOidc, type ConsoleLogin, type ConsoleOidc } from './console-oidc';
import { loadInvitedLogins, localMemberInviter } from './console-invites';
import { serveConsoleFile } from './console-static';
import type { ConsoleAccounts } from './console-seed';
import { PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { filesBucket, presignGet, s3 } from '../lambdas/platform/blob';
import { ROUTES } from '../lambdas/api/routes';
import { matchRoute } from '../lambdas/platform/http/match';

/** A path the API answers, whatever the console serves: /api itself or anything under it, in any case, behind any number of slashes. */
const API_PATH = /^\/+api(?:\/|$)/i;

// Everything of the console that the local server answers besides the API: its pages, the
// embedded OpenID Connect provider under /oidc, and /console/api/* behind a JWT check that plays
// the HTTP API's JWT authorizer (in AWS the authorizer runs before the same handler).

export type Prelude = (req: IncomingMessage, res: ServerResponse, url: URL, bodies: RequestBodies) => Promise<boolean>;

export interface ConsoleLayer {
  /** Give this to startLocalApi; it answers nothing until `attach` has run. */
  prelude: Prelude;
  attach(origin: string, accounts: ConsoleAccounts): ConsoleOidc;
}

const unauthorized = (detail: string) => ({
  statusCode: 401,
  headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer', 'cache-control': 'no-store' },
  body: JSON.stringify({ detail }),
});

export function createConsoleLayer(options: { maxBodyBytes: number; ports: Ports }): ConsoleLayer {
  // The provider's logins: the demo owner and member, the members invited before, and those invited from now on.
  const logins: ConsoleLogin[] = [];
  let consoleOrigin = '';
  let dataDir: string | null = null;
  const memberInviter = localMemberInviter({ logins, dataDir: () => dataDir, origin: () => consoleOrigin, log: (line) => console.warn(line) });
  const consoleApi = consoleApiFor({ ...options.ports, memberInviter });
  let oidc: ConsoleOidc | null = null;
  let config: unknown = null;
  // Large files go from the page straight to the file store (the staging path), another origin.
  let storeOrigin: string | null = null;
  let corsReady: Promise<void> = Promise.resolve();

  // The token is checked before the body is read: a request refused is answered unread, and an
  // accepted one's body counts against its organization's budget (request-bodies.ts).
  async function api(req: IncomingMessage, res: ServerResponse, url: URL, bodies: RequestBodies): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token) return bodies.answerEarly(req, res, unauthorized('Sign in to use the console'));
    if (token.startsWith('svc_live_')) return bodies.answerEarly(req, res, unauthorized('API keys cannot be used on console routes; sign in to the console'));
    let claims: Record<string, unknown>;
    try {
      claims = await oidc!.verifyAccessToken(token);
    } catch {
      return bodies.answerEarly(req, res, unauthorized('Your session is not valid or has expired; sign in again'));
    }
    const tenant = hasBody(req) ? await organizationOf(claims) : null;
    await bodies.withBody(
      req,
      res,
      tenant,
      async (body) => {
        const event = toEvent(req, method, url, body, `${method} ${url.pathname}`, undefined);
        (event.requestContext as APIGatewayProxyEventV2['requestContext'] & { authorizer: unknown }).authorizer = {
          jwt: { claims, scopes: typeof claims.scope === 'string' ? claims.scope.split(' ') : [] },
        };
        send(res, await withLogContext(() => consoleApi(event)));
      },
      () => ({ statusCode: 413, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: `Request body exceeds ${options.maxBodyBytes} bytes` }) }),
    );
  }

  return {
    prelude: async (req, res, url, bodies) => {
      if (!oidc) return false;
      const path = url.pathname;
      // Every path of the API's route table is the API's (/openapi.json, /health, /ready and any
      // later one), whatever the method: the console's pages never shadow a route. The console
      // answers every other path without an extension with its page (a single-page app), which
      // is how /health once answered 200 with the console's HTML.
      // A path under /api in any case or behind any number of slashes (`//api/…` from a base URL
      // given with a trailing slash, `/API/…`) is the API's too: its 404, never a page with 200.
      if (API_PATH.test(path) || matchRoute(ROUTES, req.method ?? 'GET', path).pathExists) return false;
      // The sign-in pages read their own small forms (the provider's parsers bound them).
      if (path === '/oidc' || path.startsWith('/oidc/')) bodies.proceed(req, res);
      if (await oidc.handle(req, res, url)) return true;
      if (path.startsWith('/console/api/')) {
        await api(req, res, url, bodies);
        return true;
      }
      await corsReady;
      return serveConsoleFile(req, res, url, { config, connect: storeOrigin ? [storeOrigin] : [] });
    },
    attach(origin, accounts) {
      logins.splice(0, logins.length, accounts.owner, accounts.member, ...loadInvitedLogins(accounts.dataDir));
      dataDir = accounts.dataDir;
      consoleOrigin = origin;
      oidc = startConsoleOidc({ origin, logins, keys: accounts.keys, sessionsFile: accounts.sessionsFile, tokenSeconds: tokenSecondsFromEnv() });
      config = { authority: oidc.issuer, client_id: CONSOLE_CLIENT_ID, scope: CONSOLE_SCOPE };
      corsReady = allowConsoleUploads(origin).then(
        (o) => void (storeOrigin = o),
        (error: unknown) => console.warn(`console: large uploads will not reach the file store from the page: ${(error as Error).message}`),
      );
      return oidc;
    },
  };
}

/**
 * The organization a signed-in person's body counts against: the console's own rule for who the
 * caller is (lambdas/console/principal.ts, which reads only the verified claims). Null when it
 * names none: the handler refuses the request, and its body counts as not authenticated until then.
 */
async function organizationOf(claims: Record<string, unknown>): Promise<Tenant> {
  const withClaims = { requestContext: { authorizer: { jwt: { claims } } } } as unknown as APIGatewayProxyEventV2;
  try {
    return (await consolePrincipal(withClaims)).organizationId;
  } catch {
    return null;
  }
}

/**
 * As the files bucket's CORS rule in AWS (lib/console-construct.ts): the console's origin only,
 * POST (the presigned form) and PUT. Returns the store's origin as the page sees it (for its CSP).
 */
async function allowConsoleUploads(consoleOrigin: string): Promise<string> {
  await (await s3()).send(
    new PutBucketCorsCommand({
      Bucket: filesBucket(),
      CORSConfiguration: { CORSRules: [{ AllowedOrigins: [consoleOrigin], AllowedMethods: ['POST', 'PUT'], AllowedHeaders: ['content-type'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3600 }] },
    }),
  );
  // Where links point (S3_LINK_ENDPOINT or the store itself): read from a link, as the page gets one.
  return new URL(await presignGet(filesBucket(), 'origin-probe', 60)).origin;
}

/**
 * CONSOLE_TOKEN_SECONDS: how long the local provider's access and ID tokens last (an hour unless
 * set, as Cognito's); the console renews them before then. Tests set it short to see a renewal.
 */
function tokenSecondsFromEnv(): number | undefined {
  const value = process.env.CONSOLE_TOKEN_SECONDS;
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 86_400) throw new Error(`CONSOLE_TOKEN_SECONDS must be a whole number of seconds from 10 to 86400; got '${value}'`);
  return n;
}
