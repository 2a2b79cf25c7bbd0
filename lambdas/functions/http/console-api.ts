import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from '../../platform/zod';
import { AdminError, listKeys, mintKey, removeMember, revokeKey } from '../../admin/admin';
import { getApiKeyById, getMembership } from '../../auth/identity-repository';
import { getBalance } from '../../credits/credits';
import { HttpError } from '../../platform/errors';
import { toHttpError } from '../../platform/http/error-response';
import { InvalidInput, NotFound } from '../../platform/domain-errors';
import { rawBodyOf } from '../../platform/http/raw-body';
import { originalLink, processedLink } from '../../uploads/downloads';
import { ProcessedDownloadQuery } from '../../uploads/routes';
import { column } from '../../uploads/request';
import { parseOr400 } from '../../platform/http/validation';
import { isUuid } from '../../platform/ids';
import { readStaged, stageUpload } from '../../uploads/staging';
import { toPublicUpload, type UploadRecord } from '../../uploads/upload';
import { getUpload, listUploads } from '../../uploads/upload-repository';
import { listLedger, listMembers } from '../../console/directory';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpointsOf, updateEndpointWithPing } from '../../webhooks/endpoints';
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '../../webhooks/envelope';
import { addNumber, deleteNumber as deleteSpamNumber, history as spamHistory, listNumbers, resendCode, screenshot as spamScreenshot, verifyNumber } from '../../spam/numbers';
import { isCarrier } from '../../spam/carriers';
import { consolePrincipal, requireOwner, type ConsolePrincipal } from '../../console/principal';
import { confirmWebUpload, mapWebUpload, openDrafts, ownDraft, reportLink, startWebUpload } from '../../console/web-upload';
import type { ConsolePorts } from '../../composition/ports';

// The console's API (/console/api/*): thin handlers over the same feature functions the public API
// and the admin CLI use. Authority comes only from a verified OpenID Connect access token (see
// principal.ts); there are no cookies here, so there is nothing for a cross-site request to ride on.

type Handler = (p: ConsolePrincipal, req: { params: Record<string, string>; query: Record<string, string>; event: APIGatewayProxyEventV2; ports: ConsolePorts }) => Promise<unknown>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handle: Handler;
}

const routes: Route[] = [];
function route(method: string, path: string, handle: Handler) {
  const names: string[] = [];
  const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  routes.push({ method, pattern, names, handle });
}

function json<T extends z.ZodMiniType>(schema: T, event: APIGatewayProxyEventV2): z.infer<T> {
  let body: unknown;
  try {
    const raw = rawBodyOf(event);
    body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    throw new InvalidInput('The body is not valid JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new InvalidInput(parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return parsed.data;
}

const adminCall = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AdminError) throw new InvalidInput(error.message);
    throw error;
  }
};

route('GET', '/console/api/me', async (p) => ({
  user: { id: p.user.id, email: p.user.email },
  organization: { id: p.organization.id, name: p.organization.name, subscription_active: p.organization.subscription_active },
  role: p.role,
}));

// Developer panel (owners only; spec: "Keys cannot manage keys", so no API key reaches these).
route('GET', '/console/api/keys', async (p) => {
  requireOwner(p);
  const members = new Map((await listMembers(p.organizationId)).map((m) => [m.user_id, m.email]));
  const keys = await listKeys(p.organizationId);
  return {
    data: keys
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map((k) => ({ id: k.id, display_prefix: k.display_prefix, created_by_user_id: k.created_by_user_id, created_by: members.get(k.created_by_user_id) ?? null, created_at: k.created_at, expires_at: k.expires_at, revoked_at: k.revoked_at, last_used_at: (k as { last_used_at?: string }).last_used_at ?? null })),
  };
});
route('POST', '/console/api/keys', async (p, { event }) => {
  requireOwner(p);
  const body = json(z.object({ expires_at: z.nullish(z.iso.datetime({ offset: true })) }), event);
  if (body.expires_at && Date.parse(body.expires_at) <= Date.now()) throw new InvalidInput('expires_at must be in the future');
  const minted = await adminCall(() => mintKey(p.organizationId, p.userId, body.expires_at ?? undefined));
  return { key: minted.key, id: minted.record.id, display_prefix: minted.record.display_prefix, created_at: minted.record.created_at, expires_at: minted.record.expires_at };
});
route('DELETE', '/console/api/keys/{id}', async (p, { params }) => {
  requireOwner(p);
  const key = await getApiKeyById(params.id!);
  if (!key || key.organization_id !== p.organizationId) throw new NotFound('API key not found');
  await adminCall(() => revokeKey(key.id));
  return { id: key.id, revoked: true };
});
route('GET', '/console/api/members', async (p) => {
  requireOwner(p);
  return { data: await listMembers(p.organizationId) };
});
route('DELETE', '/console/api/members/{userId}', async (p, { params }) => {
  requireOwner(p);
  if (params.userId === p.userId) throw new InvalidInput('You cannot remove yourself; another owner can');
  // Someone who is not a member (any more) is not found, like an unknown key or endpoint.
  if (!(await getMembership(p.organizationId, params.userId!))) throw new NotFound('Member not found');
  const result = await adminCall(() => removeMember(p.organizationId, params.userId!));
  return { user_id: params.userId, revoked_keys: result.revokedKeys };
});

// Webhooks (owners: they are part of the integration). The same feature functions as the API, so
// registration pings synchronously and shows the secret once.
route('GET', '/console/api/webhooks', async (p) => {
  requireOwner(p);
  return { data: await listEndpointsOf(p.organizationId), event_types: SUBSCRIBABLE_EVENT_TYPES, default_events: DEFAULT_EVENT_TYPES };
});
const WebhookBody = z.object({ url: z.string().check(z.minLength(1), z.maxLength(2048)), description: z.nullish(z.string().check(z.maxLength(500))), events: z.optional(z.array(z.string())) });
route('POST', '/console/api/webhooks', async (p, { event, ports }) => {
  requireOwner(p);
  return createEndpoint(ports, p.organizationId, json(WebhookBody, event));
});
route('POST', '/console/api/webhooks/{id}', async (p, { params, event, ports }) => {
  requireOwner(p);
  // A changed url goes through the API's own update: URL-safety check, then the synchronous ping
  // with the endpoint's secret; a refusal leaves the endpoint as it was.
  const body = json(z.object({ url: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))), description: z.nullish(z.string().check(z.maxLength(500))), events: z.optional(z.array(z.string())), is_active: z.optional(z.boolean()) }), event);
  return updateEndpointWithPing(ports, p.organizationId, params.id!, body);
});
route('DELETE', '/console/api/webhooks/{id}', async (p, { params }) => {
  requireOwner(p);
  await deleteEndpoint(p.organizationId, params.id!);
  return { id: params.id, deleted: true };
});
route('GET', '/console/api/webhooks/{id}/deliveries', async (p, { params, query }) => {
  requireOwner(p);
  return listDeliveries(p.organizationId, params.id!, { limit: 50, cursor: query.cursor || undefined });
});

// Spam monitoring (everyone: the people who watch caller-ID labels), over the spam feature's functions.
route('GET', '/console/api/spam', async (p) => listNumbers(p.organization, 100, 0));
route('POST', '/console/api/spam', async (p, { event, ports }) =>
  addNumber(ports, p.organization, json(z.object({ phone_number: z.string().check(z.minLength(1), z.maxLength(40)), verification_method: z._default(z.enum(['sms', 'call']), 'sms') }), event)),
);
// Everyone may stop monitoring, as anyone may add a number: the API's delete (limits slot, phone guard, history).
route('DELETE', '/console/api/spam/{id}', async (p, { params }) => deleteSpamNumber(p.organization, params.id!));
route('POST', '/console/api/spam/{id}/verify', async (p, { params, event, ports }) => verifyNumber(ports, p.organization, params.id!, json(z.object({ code: z.string().check(z.minLength(1), z.maxLength(20)) }), event).code));
route('POST', '/console/api/spam/{id}/resend', async (p, { params, event, ports }) => resendCode(ports, p.organization, params.id!, json(z.object({ method: z.enum(['sms', 'call']) }), event).method));
route('GET', '/console/api/spam/{id}/history', async (p, { params }) => spamHistory(p.organization, params.id!));
// The image as a data: URL, so the page shows it under its strict CSP (img-src 'self' data:).
route('GET', '/console/api/spam/{id}/screenshot', async (p, { params, query }) => {
  if (query.carrier !== undefined && !isCarrier(query.carrier)) throw new InvalidInput('carrier must be at&t, t-mobile or verizon');
  const image = await spamScreenshot(p.organization, params.id!, query.carrier as Parameters<typeof spamScreenshot>[2]);
  return { content_type: image.contentType, data_url: `data:${image.contentType};base64,${image.bytes.toString('base64')}` };
});

route('GET', '/console/api/credits', async (p) => ({ balance: await getBalance(p.organizationId), ledger: await listLedger(p.organizationId, 100) }));

// Uploads: the in-app flow (web-upload.ts) and every upload of the organization.
route('GET', '/console/api/uploads', async (p, { query }) => {
  const page = await listUploads(p.organizationId, 50, query.cursor || undefined);
  // A list row per draft: its header, preview and invalid cells (up to 200 KB each) are read with the draft itself.
  const drafts = (await openDrafts(p)).map(({ header: _h, preview: _p, invalid_cells: _i, suggested: _s, ...row }) => row);
  return { drafts, data: page.data.map(toPublicUpload), next_cursor: page.nextCursor };
});
route('POST', '/console/api/uploads', async (p, { event, query }) => {
  const draft = await startWebUpload(p, query.filename ?? 'web_upload.csv', rawBodyOf(event));
  return { draft };
});
// Files over what the HTTP API carries (10 MB; a Lambda event 6 MB) go from the browser straight to
// the files bucket through the staging path's presigned POST (the API's own), then become a draft.
route('POST', '/console/api/uploads/staging', async (p) => stageUpload(p.organizationId));
route('POST', '/console/api/uploads/staged', async (p, { event }) => {
  const body = json(z.object({ staged_upload_id: z.uuid(), filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) }), event);
  return { draft: await startWebUpload(p, body.filename ?? 'web_upload.csv', await readStaged(p.organizationId, body.staged_upload_id)) };
});
route('GET', '/console/api/uploads/{id}', async (p, { params }) => {
  const upload = await getUpload(params.id!);
  if (upload && upload.organization_id === p.organizationId && upload.status !== 'charging') return { upload: toPublicUpload(upload) };
  return { draft: await ownDraft(p, params.id!) };
});
// Column names under the API's own rule (trimmed, 1 to 256 characters).
const Mapping = z.object({
  phone_columns: z.array(column).check(z.minLength(1), z.maxLength(10)),
  full_name_column: z.nullish(column),
  first_name_column: z.nullish(column),
  last_name_column: z.nullish(column),
});
route('POST', '/console/api/uploads/{id}/mapping', async (p, { params, event }) => {
  const m = json(Mapping, event);
  const draft = await mapWebUpload(p, params.id!, {
    phoneColumns: m.phone_columns,
    fullNameColumn: m.full_name_column ?? undefined,
    firstNameColumn: m.first_name_column ?? undefined,
    lastNameColumn: m.last_name_column ?? undefined,
  });
  return { draft };
});
route('POST', '/console/api/uploads/{id}/confirm', async (p, { params, event, ports }) => {
  const body = json(z.object({ validation_tier: z.enum(['standard', 'max']), skip_mobile_lookup: z._default(z.boolean(), false), expected_credits: z.number().check(z.int(), z.gte(0)) }), event);
  return { upload: toPublicUpload(await confirmWebUpload(ports, p, params.id!, body.validation_tier, body.skip_mobile_lookup, body.expected_credits)) };
});
route('GET', '/console/api/uploads/{id}/report', async (p, { params }) => reportLink(p, params.id!));
route('GET', '/console/api/uploads/{id}/download/{kind}', async (p, { params, query }) => {
  const upload = await ownUpload(p, params.id!);
  if (params.kind === 'original') return originalLink(upload);
  if (params.kind === 'processed') return processedLink(upload, parseOr400(ProcessedDownloadQuery, query, 'query parameters'));
  throw new NotFound('Unknown download');
});

async function ownUpload(p: ConsolePrincipal, id: string): Promise<UploadRecord> {
  const upload = await getUpload(id);
  if (!upload || upload.organization_id !== p.organizationId || upload.status === 'charging') throw new NotFound('Upload not found');
  return upload;
}

const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/**
 * The route's path parameters, decoded. Every one but a download's `kind` is an id, and every id
 * is a UUID: anything else names nothing (404, as in the public API), before it reaches a table key.
 */
function pathParams(names: string[], match: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    let value: string;
    try {
      value = decodeURIComponent(match[i + 1]!);
    } catch {
      throw new NotFound('Not found');
    }
    if (name !== 'kind') {
      value = value.toLowerCase();
      if (!isUuid(value)) throw new NotFound('Not found');
    }
    params[name] = value;
  });
  return params;
}

/** The console API over the ports of its runtime's composition root. */
export const consoleApi =
  (ports: ConsolePorts) =>
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      const method = event.requestContext.http.method.toUpperCase();
      const path = event.rawPath;
      const candidates = routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
      if (candidates.length === 0) throw new NotFound('Not found');
      const hit = candidates.find((x) => x.r.method === method);
      if (!hit) throw new HttpError(405, 'Method not allowed', { allow: candidates.map((x) => x.r.method).join(', ') });
      const params = pathParams(hit.r.names, hit.m!);
      const principal = await consolePrincipal(event);
      const body = await hit.r.handle(principal, { params, query: (event.queryStringParameters ?? {}) as Record<string, string>, event, ports });
      return { statusCode: 200, headers: HEADERS, body: JSON.stringify(body) };
    } catch (error) {
      const known = toHttpError(error);
      if (known) return { statusCode: known.status, headers: { ...HEADERS, ...known.headers }, body: JSON.stringify({ detail: known.detail }) };
      console.error('console api: unhandled', error);
      return { statusCode: 500, headers: HEADERS, body: JSON.stringify({ detail: `Internal server error (request ${event.requestContext.requestId})` }) };
    }
  };
