import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { apiHandler } from '../../api/api-handler';
import { lazyOperation, operation, type BoundOperation } from '../../api/operation';
import type { ConsolePorts } from '../../composition/ports';
import { CONSOLE_ROUTE_TABLE as routes, type ConsoleRouteName } from '../../console/route-table';
import { lazyModule } from '../../platform/aws/lazy-module';
import { ok } from '../../platform/http/response';
import * as uploadsPanel from './console-api/uploads';

// The console's API (/console/api/*, lambdas/console/routes.ts) on the public API's HTTP stack:
// thin operations over the same feature functions the public API and the admin CLI use. Authority
// comes only from a verified OpenID Connect access token (console/principal.ts); there are no
// cookies here, so there is nothing for a cross-site request to ride on.
//
// A cold start carries the route table, the sign-in check and the envelope, and answers /me. Each
// panel's operations (./console-api/*.ts: their feature code and request schemas) load at the first
// request of one of its routes, from a chunk of their own (code splitting, docs/performance.md
// "Lazy cold starts, third step"); the sign-in check runs first, so a refused request loads none.
// The uploads panel is the exception: the dashboard opens on the uploads list, so every cold start
// that serves a signed-in member loads it, and from the entry it costs about 30 M instructions less
// than from its chunk and the seven small shared chunks beside it (docs/performance.md, "Cold
// imports, ninth step").

interface Panel {
  operations: (ports: ConsolePorts) => BoundOperation[];
}

export const CONSOLE_PANELS = {
  developer: () => import('./console-api/developer'),
  webhooks: () => import('./console-api/webhooks'),
  spam: () => import('./console-api/spam'),
  credits: () => import('./console-api/credits'),
  uploads: () => Promise.resolve(uploadsPanel),
  upload: () => import('./console-api/upload'),
  webUpload: () => import('./console-api/web-upload'),
  downloads: () => import('./console-api/downloads'),
} satisfies Record<string, () => Promise<Panel>>;

/** Each lazily served route and its panel, in the order routing tries them (the order of 405's Allow). */
export const CONSOLE_LAZY_ROUTES: [Exclude<ConsoleRouteName, 'openapi' | 'me'>, keyof typeof CONSOLE_PANELS][] = [
  ['listKeys', 'developer'],
  ['mintKey', 'developer'],
  ['revokeKey', 'developer'],
  ['listMembers', 'developer'],
  ['inviteMember', 'developer'],
  ['removeMember', 'developer'],
  ['listWebhooks', 'webhooks'],
  ['createWebhook', 'webhooks'],
  ['updateWebhook', 'webhooks'],
  ['deleteWebhook', 'webhooks'],
  ['redeliverWebhook', 'webhooks'],
  ['webhookDeliveries', 'webhooks'],
  ['listSpam', 'spam'],
  ['addSpam', 'spam'],
  ['deleteSpam', 'spam'],
  ['verifySpam', 'spam'],
  ['resendSpam', 'spam'],
  ['spamHistory', 'spam'],
  ['spamScreenshot', 'spam'],
  ['credits', 'credits'],
  ['listUploads', 'uploads'],
  ['startUpload', 'webUpload'],
  ['stageUpload', 'webUpload'],
  ['startStagedUpload', 'webUpload'],
  ['getUpload', 'upload'],
  ['mapUpload', 'webUpload'],
  ['confirmUpload', 'webUpload'],
  ['discardUpload', 'webUpload'],
  ['rereadUpload', 'webUpload'],
  ['uploadReport', 'webUpload'],
  ['download', 'downloads'],
];

const operations = (ports: ConsolePorts): BoundOperation[] => {
  // Each panel loaded once per container, at its first request, with this runtime's ports.
  const panels = new Map(Object.entries(CONSOLE_PANELS).map(([name, load]) => [name, lazyModule(async () => (await load()).operations(ports))]));
  return [
    operation(routes.openapi, async ({ headers }) => {
      const [{ buildOpenApi }, { CONSOLE_ROUTES }] = await Promise.all([import('../../platform/openapi'), import('../../console/routes')]);
      return ok(buildOpenApi(CONSOLE_ROUTES, headers.host ? `${headers['x-forwarded-proto'] ?? 'https'}://${headers.host}` : undefined, [], { title: 'Phone Number Validation Service: console API', bearer: 'an OpenID Connect access token of a signed-in person (never an API key)' }));
    }),
    operation(routes.me, async ({ member: p }) =>
      ok({
        user: { id: p.user.id, email: p.user.email },
        organization: { id: p.organization.id, name: p.organization.name, subscription_active: p.organization.subscription_active },
        role: p.role,
      }),
    ),
    ...CONSOLE_LAZY_ROUTES.map(([route, panel]) => lazyOperation(routes[route], panels.get(panel)!)),
  ];
};

/** The console API over the ports of its runtime's composition root; its answers are never cached. */
export const consoleApi = (ports: ConsolePorts) => {
  const handler = apiHandler(operations(ports), { routeByPath: true });
  return async (event: APIGatewayProxyEventV2, context?: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const result = await handler(event, context ?? ({ awsRequestId: event.requestContext.requestId } as Context));
    return { ...result, headers: { ...result.headers, 'cache-control': 'no-store' } };
  };
};
