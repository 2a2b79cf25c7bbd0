import { nowIso, nowMs } from '../platform/clock';
import { InvalidInput, NotFound } from '../platform/domain-errors';
import { isUuid, newId, randomHex } from '../platform/ids';
import { logger } from '../platform/logger';
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES, type EventType } from './envelope';
import { ENDPOINT_DELETED, listDeliveriesOfWebhook, markExhausted, pendingDeliveryIdsOfWebhook } from './delivery-repository';
import { toPublicDelivery, type WebhookDelivery } from './delivery-view';
import { deleteEndpointItem, getEndpoint, listEndpoints, putEndpoint, updateEndpointFields, type EndpointRecord } from './endpoint-repository';
import type { PingResult } from './ping';
import { lazyModule } from '../platform/aws/lazy-module';
import { assertUrlNotRegistered, duplicateUrl, urlIdentity } from './duplicate-url';
import { claimUrl, releaseUrl } from './url-claim';
import type { NetPorts } from '../platform/net/outbound';
import { openStored, webhookSecretContext, type OpenPorts, type SealPorts } from './secret-sealer';

// Registration and a URL change check the URL and ping it; listing, reading and deleting endpoints
// (the webhooks API's usual requests) do not: the URL rules and the signed POST (ipaddr.js, DNS,
// TLS) load at the first of those, not at every cold start (docs/performance.md, "Cold imports, fifth step").
const urlSafety = /* @__PURE__ */ lazyModule(() => import('./url-safety'));
const pinger = /* @__PURE__ */ lazyModule(() => import('./ping'));

export type WebhookEndpoint = Omit<EndpointRecord, 'organization_id' | 'secret'>;

/** The spec's WebhookEndpoint: everything but the secret and the tenant. */
export function toPublic(record: EndpointRecord): WebhookEndpoint {
  return {
    id: record.id,
    url: record.url,
    description: record.description ?? null,
    events: record.events,
    is_active: record.is_active,
    verified_at: record.verified_at ?? null,
    last_success_at: record.last_success_at ?? null,
    last_failure_at: record.last_failure_at ?? null,
    consecutive_failures: record.consecutive_failures ?? 0,
    disabled_at: record.disabled_at ?? null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** Unknown, duplicated-away or empty lists are a 400 (spec, Status codes). */
export function normalizeEvents(events: string[] | undefined): EventType[] {
  if (events === undefined) return [...DEFAULT_EVENT_TYPES];
  if (events.length === 0) throw new InvalidInput('events must list at least one event type');
  const unknown = events.filter((e) => !(SUBSCRIBABLE_EVENT_TYPES as string[]).includes(e));
  if (unknown.length) throw new InvalidInput(`Unknown event type(s): ${unknown.join(', ')}. Valid: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`);
  return [...new Set(events)] as EventType[];
}

export async function createEndpoint(
  ports: NetPorts & SealPorts,
  organizationId: string,
  input: { url: string; description?: string | null; events?: string[] },
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  const events = normalizeEvents(input.events);
  await (await urlSafety()).assertSafeUrl(ports.net, input.url);
  // Before the ping: a duplicate sends the receiver nothing. The list finds endpoints registered
  // before URL claims existed; the claim settles concurrent registrations (exactly one wins).
  assertUrlNotRegistered(await listEndpoints(organizationId), input.url);
  const id = newId();
  await claimOrConflict(organizationId, input.url, id);
  const secret = randomHex(32);
  let record: EndpointRecord;
  let ping: PingResult;
  try {
    ping = await (await pinger()).pingOrThrow(ports.net, input.url, secret);
    const at = nowIso();
    record = {
      id,
      organization_id: organizationId,
      url: input.url,
      description: input.description ?? null,
      events,
      is_active: true,
      verified_at: at,
      // The registration ping is a delivery the endpoint answered 2xx.
      last_success_at: at,
      last_failure_at: null,
      consecutive_failures: 0,
      disabled_at: null,
      created_at: at,
      updated_at: at,
      // Sealed after the ping: a refused registration costs no KMS call. The plaintext is returned once, below.
      secret: await ports.sealer.seal(secret, webhookSecretContext(organizationId, id)),
    };
    await putEndpoint(record);
  } catch (error) {
    // Nothing registered: the URL is free again.
    await releaseUrl(organizationId, input.url, id);
    throw error;
  }
  await (await pinger()).recordPing(organizationId, record.id, ping);
  logger.info('webhook endpoint created', { webhook_id: record.id, events });
  return { webhook: toPublic(record), secret };
}

/** Claims the URL for the endpoint, or the 409 naming the endpoint that holds it. */
async function claimOrConflict(organizationId: string, url: string, id: string): Promise<void> {
  const holder = await claimUrl(organizationId, url, id, nowMs());
  if (holder) throw duplicateUrl(holder);
}

export async function listEndpointsOf(organizationId: string): Promise<WebhookEndpoint[]> {
  return (await listEndpoints(organizationId)).map(toPublic);
}

/** The organization's endpoint `id`, or the 404. */
export async function ownEndpoint(organizationId: string, id: string): Promise<EndpointRecord> {
  const record = isUuid(id) ? await getEndpoint(id) : null;
  if (!record || record.organization_id !== organizationId) throw new NotFound('Webhook endpoint not found');
  return record;
}

export async function getEndpointOf(organizationId: string, id: string): Promise<WebhookEndpoint> {
  return toPublic(await ownEndpoint(organizationId, id));
}

export type EndpointPatch = { url?: string; description?: string | null; events?: string[]; is_active?: boolean };

export async function updateEndpoint(ports: NetPorts & OpenPorts, organizationId: string, id: string, patch: EndpointPatch): Promise<WebhookEndpoint> {
  return (await updateEndpointWithPing(ports, organizationId, id, patch)).webhook;
}

/**
 * The API's PATCH, also answering the synchronous ping a URL change sent (null when the URL did not
 * change), so the console can show its outcome.
 */
export async function updateEndpointWithPing(
  ports: NetPorts & OpenPorts,
  organizationId: string,
  id: string,
  patch: EndpointPatch,
): Promise<{ webhook: WebhookEndpoint; ping: { status_code: number; delivery_id: string; attempted_at: string } | null }> {
  const current = await ownEndpoint(organizationId, id);
  const at = nowIso();
  const fields: Partial<EndpointRecord> = { updated_at: at };
  if (patch.events !== undefined) fields.events = normalizeEvents(patch.events);
  if (patch.description !== undefined) fields.description = patch.description;
  let ping: PingResult | null = null;
  // A new identity is claimed before the ping and the old one given back after the write.
  const newUrl = patch.url !== undefined && patch.url !== current.url ? patch.url : null;
  const movesUrl = newUrl !== null && urlIdentity(newUrl) !== urlIdentity(current.url);
  if (newUrl !== null) {
    await (await urlSafety()).assertSafeUrl(ports.net, newUrl);
    assertUrlNotRegistered(await listEndpoints(organizationId), newUrl, id);
    if (movesUrl) await claimOrConflict(organizationId, newUrl, id);
    try {
      // Re-verified with the existing secret; a failing ping rejects the whole update.
      ping = await (await pinger()).pingOrThrow(ports.net, newUrl, await openStored(ports, current.secret, webhookSecretContext(organizationId, id)));
    } catch (error) {
      if (movesUrl) await releaseUrl(organizationId, newUrl, id);
      throw error;
    }
    fields.url = newUrl;
    // A 2xx ping is a successful delivery: it sets last_success_at and resets the failure count,
    // as any successful delivery does (spec, WebhookEndpoint).
    Object.assign(fields, { verified_at: at, last_success_at: at, consecutive_failures: 0 });
  }
  if (patch.is_active === true) {
    Object.assign(fields, { is_active: true, consecutive_failures: 0, disabled_at: null });
  } else if (patch.is_active === false) {
    fields.is_active = false;
  }
  // A PATCH that changes nothing writes nothing: updated_at says when the endpoint last changed.
  if (newUrl === null && unchanged(current, fields)) return { webhook: toPublic(current), ping: null };
  const updated = await updateEndpointFields(id, organizationId, fields);
  if (!updated) {
    if (newUrl !== null && movesUrl) await releaseUrl(organizationId, newUrl, id);
    throw new NotFound('Webhook endpoint not found');
  }
  if (movesUrl) await releaseUrl(organizationId, current.url, id);
  if (ping) await (await pinger()).recordPing(organizationId, id, ping);
  return { webhook: toPublic(updated), ping: ping && { status_code: ping.statusCode, delivery_id: ping.deliveryId, attempted_at: ping.attemptedAt } };
}

/** Whether every field but updated_at already has the value the patch would write. */
function unchanged(current: EndpointRecord, fields: Partial<EndpointRecord>): boolean {
  return Object.entries(fields).every(([name, value]) => name === 'updated_at' || JSON.stringify(current[name as keyof EndpointRecord] ?? null) === JSON.stringify(value ?? null));
}

/** Hard delete; deliveries still in flight end as exhausted. */
export async function deleteEndpoint(organizationId: string, id: string): Promise<void> {
  const record = await ownEndpoint(organizationId, id);
  if (!(await deleteEndpointItem(id, organizationId))) throw new NotFound('Webhook endpoint not found');
  await releaseUrl(organizationId, record.url, id);
  const at = nowIso();
  for (const deliveryId of await pendingDeliveryIdsOfWebhook(id)) await markExhausted(deliveryId, ENDPOINT_DELETED, at);
}

export async function listDeliveries(
  organizationId: string,
  id: string,
  page: { limit: number; cursor?: string },
): Promise<{ data: WebhookDelivery[]; next_cursor: string | null }> {
  await ownEndpoint(organizationId, id);
  const { items, nextCursor } = await listDeliveriesOfWebhook(organizationId, id, page.limit, page.cursor);
  return { data: items.map(toPublicDelivery), next_cursor: nextCursor };
}
