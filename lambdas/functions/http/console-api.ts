import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { listKeys, mintKey, removeMember, revokeKey } from '../../admin/admin';
import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { getApiKeyById, getMembership } from '../../auth/identity-repository';
import type { ConsolePorts } from '../../composition/ports';
import { listLedger, listMembers } from '../../console/directory';
import { inviteMember, releaseInvite } from '../../console/invite-member';
import { requireOwner, type ConsolePrincipal } from '../../console/principal';
import { CONSOLE_ROUTES, consoleRoutes as routes } from '../../console/routes';
import { confirmWebUpload, mapWebUpload, openDrafts, ownDraft, reportLink, startWebUpload } from '../../console/web-upload';
import { rereadWebUpload } from '../../console/web-upload-format';
import { discardWebUpload } from '../../console/web-upload-discard';
import { matchesDraft, searchUploads } from '../../console/upload-search';
import { processingProgress } from '../../console/upload-progress';
import { processedFilename } from '../../console/download-name';
import { getBalance } from '../../credits/credits';
import { nowMs } from '../../platform/clock';
import { InvalidInput, NotFound } from '../../platform/domain-errors';
import { ok } from '../../platform/http/response';
import { addNumber, deleteNumber as deleteSpamNumber, history as spamHistory, listNumbers, resendCode, screenshot as spamScreenshot, verifyNumber } from '../../spam/numbers';
import { originalLink, processedLink } from '../../uploads/downloads';
import { readStaged, stageUpload } from '../../uploads/staging';
import { toPublicUpload, type UploadRecord } from '../../uploads/upload';
import { getUpload, listUploads } from '../../uploads/upload-repository';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpointsOf, updateEndpointWithPing } from '../../webhooks/endpoints';
import { redeliver } from '../../webhooks/redeliver';
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '../../webhooks/envelope';

// The console's API (/console/api/*, lambdas/console/routes.ts) on the public API's HTTP stack:
// thin operations over the same feature functions the public API and the admin CLI use. Authority
// comes only from a verified OpenID Connect access token (console/principal.ts); there are no
// cookies here, so there is nothing for a cross-site request to ride on.

async function ownUpload(p: ConsolePrincipal, id: string): Promise<UploadRecord> {
  const upload = await getUpload(id);
  if (!upload || upload.organization_id !== p.organizationId || upload.status === 'charging') throw new NotFound('Upload not found');
  return upload;
}

const owner = <T>(p: ConsolePrincipal, then: () => Promise<T>): Promise<T> => {
  requireOwner(p);
  return then();
};

const operations = (ports: ConsolePorts) => [
  operation(routes.openapi, async ({ headers }) => ok((await import('../../platform/openapi')).buildOpenApi(CONSOLE_ROUTES, headers.host ? `${headers['x-forwarded-proto'] ?? 'https'}://${headers.host}` : undefined, [], { title: 'Phone Number Validation Service: console API', bearer: 'an OpenID Connect access token of a signed-in person (never an API key)' }))),
  operation(routes.me, async ({ member: p }) =>
    ok({
      user: { id: p.user.id, email: p.user.email },
      organization: { id: p.organization.id, name: p.organization.name, subscription_active: p.organization.subscription_active },
      role: p.role,
    }),
  ),

  // Developer panel (owners only; spec: "Keys cannot manage keys", so no API key reaches these).
  operation(routes.listKeys, async ({ member: p }) =>
    owner(p, async () => {
      const members = new Map((await listMembers(p.organizationId)).map((m) => [m.user_id, m.email]));
      const keys = await listKeys(p.organizationId);
      return ok({
        data: keys
          .sort((a, b) => b.created_at.localeCompare(a.created_at))
          .map((k) => ({ id: k.id, name: k.name ?? null, display_prefix: k.display_prefix, created_by_user_id: k.created_by_user_id, created_by: members.get(k.created_by_user_id) ?? null, created_at: k.created_at, expires_at: k.expires_at, revoked_at: k.revoked_at, last_used_at: (k as { last_used_at?: string }).last_used_at ?? null })),
      });
    }),
  ),
  operation(routes.mintKey, async ({ member: p, body }) =>
    owner(p, async () => {
      if (body.expires_at && Date.parse(body.expires_at) <= nowMs()) throw new InvalidInput('expires_at must be in the future');
      const minted = await mintKey(p.organizationId, p.userId, body.expires_at ?? undefined, body.name);
      return ok({ key: minted.key, id: minted.record.id, name: minted.record.name ?? null, display_prefix: minted.record.display_prefix, created_at: minted.record.created_at, expires_at: minted.record.expires_at });
    }),
  ),
  operation(routes.revokeKey, async ({ member: p, params }) =>
    owner(p, async () => {
      const key = await getApiKeyById(params.id);
      if (!key || key.organization_id !== p.organizationId) throw new NotFound('API key not found');
      await revokeKey(key.id);
      return ok({ id: key.id, revoked: true });
    }),
  ),
  operation(routes.listMembers, async ({ member: p }) => owner(p, async () => ok({ data: await listMembers(p.organizationId) }))),
  operation(routes.inviteMember, async ({ member: p, body }) => owner(p, async () => ok(await inviteMember(ports, p.organizationId, p.userId, body.email)))),
  operation(routes.removeMember, async ({ member: p, params }) =>
    owner(p, async () => {
      if (params.userId === p.userId) throw new InvalidInput('You cannot remove yourself; another owner can');
      // Someone who is not a member (any more) is not found, like an unknown key or endpoint.
      if (!(await getMembership(p.organizationId, params.userId))) throw new NotFound('Member not found');
      const result = await removeMember(p.organizationId, params.userId);
      await releaseInvite(p.organizationId, params.userId);
      return ok({ user_id: params.userId, revoked_keys: result.revokedKeys });
    }),
  ),

  // Webhooks (owners: they are part of the integration). The API's own schemas and functions, so
  // registration pings synchronously and shows the secret once.
  operation(routes.listWebhooks, async ({ member: p }) => owner(p, async () => ok({ data: await listEndpointsOf(p.organizationId), event_types: SUBSCRIBABLE_EVENT_TYPES, default_events: DEFAULT_EVENT_TYPES }))),
  operation(routes.createWebhook, async ({ member: p, body }) => owner(p, async () => ok(await createEndpoint(ports, p.organizationId, body)))),
  // A changed url goes through the API's own update: URL-safety check, then the synchronous ping
  // with the endpoint's secret; a refusal leaves the endpoint as it was.
  operation(routes.updateWebhook, async ({ member: p, params, body }) => owner(p, async () => ok(await updateEndpointWithPing(ports, p.organizationId, params.id, body)))),
  operation(routes.deleteWebhook, async ({ member: p, params }) =>
    owner(p, async () => {
      await deleteEndpoint(p.organizationId, params.id);
      return ok({ id: params.id, deleted: true });
    }),
  ),
  operation(routes.redeliverWebhook, async ({ member: p, params }) => owner(p, async () => ok(await redeliver(ports, p.organizationId, params.webhook_id, params.delivery_id)))),
  operation(routes.webhookDeliveries, async ({ member: p, params, query }) => owner(p, async () => ok(await listDeliveries(p.organizationId, params.id, { limit: 50, cursor: query.cursor || undefined })))),

  // Spam monitoring (everyone: the people who watch caller-ID labels), over the spam feature's functions.
  operation(routes.listSpam, async ({ member: p }) => ok(await listNumbers(p.organization, 100, 0))),
  operation(routes.addSpam, async ({ member: p, body }) => ok(await addNumber(ports, p.organization, body))),
  // Everyone may stop monitoring, as anyone may add a number: the API's delete (limits slot, phone guard, history).
  operation(routes.deleteSpam, async ({ member: p, params }) => ok(await deleteSpamNumber(p.organization, params.id))),
  operation(routes.verifySpam, async ({ member: p, params, body }) => ok(await verifyNumber(ports, p.organization, params.id, body.code))),
  operation(routes.resendSpam, async ({ member: p, params, body }) => ok(await resendCode(ports, p.organization, params.id, body.method))),
  operation(routes.spamHistory, async ({ member: p, params }) => ok(await spamHistory(p.organization, params.id))),
  // The image as a data: URL, so the page shows it under its strict CSP (img-src 'self' data:).
  operation(routes.spamScreenshot, async ({ member: p, params, query }) => {
    const image = await spamScreenshot(p.organization, params.id, query.carrier);
    return ok({ content_type: image.contentType, data_url: `data:${image.contentType};base64,${image.bytes.toString('base64')}` });
  }),

  operation(routes.credits, async ({ member: p }) => ok({ balance: await getBalance(p.organizationId), ledger: await listLedger(p.organizationId, 100) })),

  // Uploads: the in-app flow (console/web-upload.ts) and every upload of the organization.
  operation(routes.listUploads, async ({ member: p, query }) => {
    const filter = { q: query.q, status: query.status };
    const page = await searchUploads(listUploads, p.organizationId, filter, query.cursor || undefined);
    // A list row per draft: its header, preview and invalid cells (up to 200 KB each) are read with the draft itself.
    const drafts = (await openDrafts(p)).filter((d) => matchesDraft(d, filter)).map(({ header: _h, preview: _p, invalid_cells: _i, suggested: _s, import: _f, ...row }) => row);
    return ok({ drafts, data: page.data.map(toPublicUpload), next_cursor: page.nextCursor, scanned: page.scanned });
  }),
  operation(routes.startUpload, async ({ member: p, query, rawBody }) => ok({ draft: await startWebUpload(p, query.filename ?? 'web_upload.csv', rawBody) })),
  // Files over what the HTTP API carries (10 MB; a Lambda event 6 MB) go from the browser straight to
  // the files bucket through the staging path's presigned POST (the API's own), then become a draft.
  operation(routes.stageUpload, async ({ member: p }) => ok(await stageUpload(p.organizationId))),
  operation(routes.startStagedUpload, async ({ member: p, body }) => ok({ draft: await startWebUpload(p, body.filename ?? 'web_upload.csv', await readStaged(p.organizationId, body.staged_upload_id)) })),
  operation(routes.getUpload, async ({ member: p, params }) => {
    const upload = await getUpload(params.id);
    // While processing, how far it is (derived from its chunks: the record keeps no progress).
    if (upload && upload.organization_id === p.organizationId && upload.status !== 'charging') return ok({ upload: toPublicUpload(upload), progress: await processingProgress(upload, nowMs()) });
    return ok({ draft: await ownDraft(p, params.id) });
  }),
  operation(routes.mapUpload, async ({ member: p, params, body: m }) =>
    ok({
      draft: await mapWebUpload(p, params.id, {
        phoneColumns: m.phone_columns,
        fullNameColumn: m.full_name_column ?? undefined,
        firstNameColumn: m.first_name_column ?? undefined,
        lastNameColumn: m.last_name_column ?? undefined,
      }),
    }),
  ),
  operation(routes.confirmUpload, async ({ member: p, params, body }) => ok({ upload: toPublicUpload(await confirmWebUpload(ports, p, params.id, body.validation_tier, body.skip_mobile_lookup, body.expected_credits)) })),
  operation(routes.discardUpload, async ({ member: p, params }) => ok(await discardWebUpload(p, params.id))),
  operation(routes.rereadUpload, async ({ member: p, params, body }) => ok({ draft: await rereadWebUpload(p, params.id, body) })),
  operation(routes.uploadReport, async ({ member: p, params }) => ok(await reportLink(p, params.id))),
  operation(routes.download, async ({ member: p, params, query }) => {
    const upload = await ownUpload(p, params.id);
    return ok(params.kind === 'original' ? await originalLink(upload) : await processedLink(upload, query, processedFilename(upload.original_filename, query)));
  }),
];

/** The console API over the ports of its runtime's composition root; its answers are never cached. */
export const consoleApi = (ports: ConsolePorts) => {
  const handler = apiHandler(operations(ports), { routeByPath: true });
  return async (event: APIGatewayProxyEventV2, context?: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const result = await handler(event, context ?? ({ awsRequestId: event.requestContext.requestId } as Context));
    return { ...result, headers: { ...result.headers, 'cache-control': 'no-store' } };
  };
};
