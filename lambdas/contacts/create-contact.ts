import { Conflict, InsufficientCredits, InvalidInput } from '../platform/domain-errors';
import type { NetPorts } from '../platform/net/outbound';
import { nowIso, nowMs } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import { assertReadyToCharge } from '../platform/charge-readiness';
import { newId, sha256Hex } from '../platform/ids';
import { chargeOf, debit, InsufficientCreditsError, refund } from '../credits/credits';
import { normalizeUsCa } from '../classification';
import { assertSafeUrl } from '../webhooks/url-safety';
import type { Principal } from '../auth/authenticate';
import { nextBatchPosition } from './batch-counter';
import { parseValidationTier, tierCost, type ContactRecord, type ValidationTier } from './contact';
import { claimStaleCreating, deleteCreatingContact, getContact, insertContact, queueIndexKeys, setBatchPosition, transitionContact } from './contact-repository';
import { claimIdempotencyKey, releaseIdempotencyKey } from './idempotency-repository';
import { MAX_PROPERTIES_BYTES } from './routes';
import { callbackSecretContext, type SealPorts, type StoredSecret } from '../webhooks/secret-sealer';

export interface CreateContactInput {
  phone: string;
  validation_tier?: string;
  properties?: Record<string, unknown>;
  callback_url?: string;
  callback_secret?: string;
  idempotency_key?: string;
}

/** A request with the same idempotency key younger than this is treated as still in flight. */
const IN_FLIGHT_MS = 30_000;

/**
 * A `creating` contact older than this was interrupted (a request lives at most 30 s behind API
 * Gateway); the recovery job finishes it when it was charged and removes it when it was not.
 */
export const CREATING_BOUND_MS = 5 * 60_000;

export async function createContact(ports: NetPorts & SealPorts, principal: Principal, input: CreateContactInput): Promise<{ contact: ContactRecord; replayed: boolean }> {
  const normalized = normalizeUsCa(input.phone);
  if (!normalized) throw new InvalidInput(`phone '${input.phone}' is not a valid US or Canadian phone number`);
  const tier = parseValidationTier(input.validation_tier);
  if (!tier) throw new InvalidInput(`validation_tier must be one of: standard, max (got '${input.validation_tier}')`);
  const properties = input.properties ?? {};
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) throw new InvalidInput(`properties must be at most ${MAX_PROPERTIES_BYTES} bytes of JSON`);
  if (input.callback_secret && !input.callback_url) throw new InvalidInput('callback_secret was given without callback_url');
  if (input.callback_url) {
    if (!input.callback_secret) throw new InvalidInput('callback_secret is required with callback_url: callbacks are always signed');
    await assertSafeUrl(ports.net, input.callback_url);
  }
  // Before the idempotency claim and the charge: a 503 leaves nothing behind (a retry is a first try).
  await assertReadyToCharge();

  let id = newId();
  if (input.idempotency_key !== undefined) {
    const fingerprint = sha256Hex(
      JSON.stringify([normalized.e164, tier, properties, input.callback_url ?? null, input.callback_secret ? sha256Hex(input.callback_secret) : null]),
    );
    const claim = await claimIdempotencyKey(principal.organizationId, principal.apiKeyId, input.idempotency_key, { contact_id: id, fingerprint, created_at: nowIso() });
    if (!claim.claimed) {
      if (!claim.existing) throw new Conflict('A request with this idempotency_key is still being processed; retry in a few seconds');
      if (claim.existing.fingerprint !== fingerprint) {
        throw new Conflict('idempotency_key was already used with a different request; use a new key for a different contact');
      }
      const existing = await getContact(claim.existing.contact_id);
      if (existing && existing.status !== 'creating') return { contact: existing, replayed: true };
      if (nowMs() - Date.parse(claim.existing.created_at) < IN_FLIGHT_MS) {
        throw new Conflict('A request with this idempotency_key is still being processed; retry in a few seconds');
      }
      // The first request died part-way: finish it under the same contact id (every step below is
      // idempotent per contact id).
      id = claim.existing.contact_id;
    }
  }

  // Sealed before it is stored; only the delivery that signs a callback opens it again.
  const callback =
    input.callback_url && input.callback_secret
      ? { url: input.callback_url, secret: await ports.sealer.seal(input.callback_secret, callbackSecretContext(principal.organizationId, input.callback_url)) }
      : null;
  try {
    return { contact: await chargeAndQueue(principal, id, normalized.e164, tier, properties, callback), replayed: false };
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      await deleteCreatingContact(id);
      if (input.idempotency_key !== undefined) await releaseIdempotencyKey(principal.organizationId, principal.apiKeyId, input.idempotency_key);
      throw new InsufficientCredits(`Insufficient credits: this contact needs ${error.required} credits and the balance is ${error.available}`);
    }
    throw error;
  }
}

async function chargeAndQueue(
  principal: Principal,
  id: string,
  phone: string,
  tier: ValidationTier,
  properties: Record<string, unknown>,
  callback: { url: string; secret: StoredSecret } | null,
): Promise<ContactRecord> {
  const at = nowIso();
  const draft: ContactRecord = {
    id,
    organization_id: principal.organizationId,
    api_key_id: principal.apiKeyId,
    phone,
    properties,
    status: 'creating',
    validation_tier: tier,
    credits_charged: 0,
    batch_position: null,
    answer_intent: null,
    identity: null,
    error_message: null,
    callback_url: callback?.url ?? null,
    callback_secret: callback?.secret ?? null,
    pool_upload_id: null,
    created_at: at,
    updated_at: at,
  };
  // Invisible until charged: lists and gets never show a contact that was not paid for.
  const inserted = await insertContact(draft, new Date(Date.parse(at) + CREATING_BOUND_MS).toISOString());
  if (!inserted) {
    const existing = await getContact(id);
    if (!existing) throw new Error(`contact ${id} vanished during creation`);
    if (existing.status !== 'creating') return existing;
    Object.assign(draft, { created_at: existing.created_at, batch_position: existing.batch_position });
  }

  const changeId = `contact:${id}`;
  // A max contact is charged 2 up front and its place in the batch decided only after the charge
  // succeeded: a refused charge must not leave a hole in the 2, 1, 2, 1 sequence (a hole at an
  // even place would make the next contact cost 2 again).
  // A contact this call inserted was never charged (the charge comes after the insert): no ledger read.
  await debit(principal.organizationId, changeId, tier === 'max' ? 2 : 1, { reason: `contact (${tier})`, resourceId: id, neverCharged: inserted });
  crashPoint('contact.after-debit');
  let position: number | null = null;
  if (tier === 'max') {
    position = draft.batch_position ?? (await setBatchPosition(id, (await nextBatchPosition(principal.organizationId)).position));
    if (tierCost('max', position) === 1) {
      await refund(principal.organizationId, `${changeId}:batch-discount`, changeId, { reason: 'max batch: even position costs 1', resourceId: id, amount: 1 });
    }
  }
  // `queued` and the queue entry (index attributes on the contact itself) in one conditional write:
  // a queued contact the pool cannot see cannot exist, and a crash before it leaves `creating`,
  // which recovery finishes.
  const fields = { credits_charged: tierCost(tier, position), batch_position: position, ...queueIndexKeys(draft) };
  const queued = await transitionContact(draft, ['creating'], 'queued', fields, nowIso());
  crashPoint('contact.after-queued');
  const contact = queued ?? (await getContact(id));
  if (!contact) throw new Error(`contact ${id} vanished during creation`);
  return contact;
}

/**
 * Drives contacts an interrupted create left in `creating`: charged ones are finished (placed in
 * the max batch, queued) exactly as the request would have; uncharged ones are removed (the
 * client saw an error, and an idempotent retry creates it again). Never charges anything itself.
 */
export async function recoverCreatingContacts(createdBeforeIso?: string): Promise<{ resumed: number; removed: number }> {
  let resumed = 0;
  let removed = 0;
  for (const contact of await claimStaleCreating(nowMs(), CREATING_BOUND_MS, createdBeforeIso)) {
    const charged = await chargeOf(contact.organization_id, `contact:${contact.id}`, contact.id);
    if (charged) {
      const principal = { organizationId: contact.organization_id, apiKeyId: contact.api_key_id } as Principal;
      // The secret as stored (sealed): recovery never needs to open it.
      const callback = contact.callback_url && contact.callback_secret ? { url: contact.callback_url, secret: contact.callback_secret } : null;
      await chargeAndQueue(principal, contact.id, contact.phone, contact.validation_tier, contact.properties, callback);
      resumed++;
    } else {
      await deleteCreatingContact(contact.id);
      removed++;
    }
  }
  return { resumed, removed };
}
