import { Conflict, InsufficientCredits, InvalidInput } from '../platform/domain-errors';
import type { NetPorts } from '../platform/net/outbound';
import { nowIso, nowMs } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import { assertReadyToCharge } from '../platform/charge-readiness';
import { newId, sha256Hex } from '../platform/ids';
import { sortedJsonText } from '../platform/json-text';
import { putItems } from '../platform/table';
import { chargeOf, InsufficientCreditsError, refund } from '../credits/credits';
import { chargeBeforeWrite, chargeRecorded, clearMark, ledgerEntryOf, markedCharges, reverseUnrecorded, type PendingCharge } from '../credits/charge-before-write';
import { normalizeUsCaOnDemand } from '../classification/normalize-on-demand';
import { lazyModule } from '../platform/aws/lazy-module';
import type { Principal } from '../auth/authenticate';
import { contactPrice } from './batch-counter';
import { contactCharge, parseValidationTier, type ContactRecord } from './contact';
import { claimStaleCreating, deleteCreatingContact, getContact, insertQueuedContact, queueIndexKeys, queuedContactItem, transitionContact } from './contact-repository';
import { claimIdempotencyKey, claimImplicitly, claimPk, claimStaleCreates, endClaim, implicitClaimPk, releaseStaleClaim } from './idempotency-repository';
import { MAX_PROPERTIES_BYTES } from './contact-schema';
import { callbackSecretContext, type SealPorts } from '../webhooks/secret-sealer';
import { counted } from '../platform/counted';

// Only a create with a callback URL checks it: the URL rules (ipaddr.js, DNS) load then, not at
// every cold start of the contacts API (docs/performance.md, "Cold imports, fifth step").
const urlSafety = /* @__PURE__ */ lazyModule(() => import('../webhooks/url-safety'));

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
 * A create older than this was interrupted (a request lives at most 30 s behind API Gateway): the
 * recovery job finishes it when it has a durable record (an idempotency claim) and was charged,
 * and gives its charge back when it has none (docs/reliability.md, "Contacts").
 */
export const CREATING_BOUND_MS = 5 * 60_000;

const changeIdOf = (contactId: string) => `contact:${contactId}`;
const staleAt = (createdAt: string) => new Date(Date.parse(createdAt) + CREATING_BOUND_MS).toISOString();

/**
 * POST /contacts. The price (the 2-1-2-1 rule, `contactCharge`) and, for a max contact, its place
 * in the batch are taken in one conditional write on the balance; the contact (already `queued`)
 * and its ledger entry go out in one batch write: 2 calls. A create with a durable record (an
 * idempotency key's claim, or a max contact's implicit claim) has 2 more, the claim before and its
 * end after (docs/contacts.md).
 */
export async function createContact(ports: NetPorts & SealPorts, principal: Principal, input: CreateContactInput): Promise<{ contact: ContactRecord; replayed: boolean }> {
  const normalized = await normalizeUsCaOnDemand(input.phone);
  if (!normalized) throw new InvalidInput(`phone '${input.phone}' is not a valid US or Canadian phone number`);
  const tier = parseValidationTier(input.validation_tier);
  if (!tier) throw new InvalidInput(`validation_tier must be one of: standard, max (got '${input.validation_tier}')`);
  const properties = input.properties ?? {};
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) throw new InvalidInput(`properties must be at most ${MAX_PROPERTIES_BYTES} bytes of JSON`);
  if (input.callback_url === '') throw new InvalidInput('callback_url must not be empty: leave it out for no callback');
  if (input.callback_secret && !input.callback_url) throw new InvalidInput('callback_secret was given without callback_url');
  if (input.callback_url) {
    if (!input.callback_secret) throw new InvalidInput('callback_secret is required with callback_url: callbacks are always signed');
    await (await urlSafety()).assertSafeUrl(ports.net, input.callback_url, 'callback_url');
  }
  // Before the idempotency claim and the charge: a 503 leaves nothing behind (a retry is a first try).
  await assertReadyToCharge();

  const at = nowIso();
  // Sealed before anything is stored (the claim holds the contact as it will be written); only the
  // delivery that signs a callback opens it again.
  const callback =
    input.callback_url && input.callback_secret
      ? { url: input.callback_url, secret: await ports.sealer.seal(input.callback_secret, callbackSecretContext(principal.organizationId, input.callback_url)) }
      : null;
  const draft: ContactRecord = {
    id: newId(),
    organization_id: principal.organizationId,
    api_key_id: principal.apiKeyId,
    phone: normalized.e164,
    properties,
    status: 'queued',
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

  const key = input.idempotency_key;
  if (key === undefined && tier === 'standard') return { contact: await chargeAndWrite(draft, null), replayed: false };
  if (key === undefined) {
    // A max contact takes a place in the 2, 1, 2, 1 sequence: cut short after its charge, it must be
    // finished, not given back (a place given back at an even position would make a run cost more
    // than ceil(1.5 n)), so it has a durable record even without an idempotency key.
    await claimImplicitly(draft, staleAt(at));
    return { contact: await chargeAndWrite(draft, { pk: implicitClaimPk(draft.organization_id, draft.id), implicit: true }), replayed: false };
  }

  const fingerprintAs = (json: (value: unknown) => string) => sha256Hex(json([normalized.e164, tier, properties, input.callback_url ?? null, input.callback_secret ? sha256Hex(input.callback_secret) : null]));
  // The same request whatever order `properties`' members come in. A claim made before that was
  // so holds the members in the order they were sent, which a retry sending them so still matches.
  const fingerprint = fingerprintAs(sortedJsonText);
  const sentOrder = fingerprintAs(JSON.stringify);
  const claim = { contact_id: draft.id, fingerprint, created_at: at };
  const result = await claimIdempotencyKey(principal.organizationId, principal.apiKeyId, key, claim, draft, staleAt(at));
  if (result.claimed) return { contact: await chargeAndWrite(draft, { pk: claimPk(principal.organizationId, principal.apiKeyId, key), implicit: false }), replayed: false };

  if (!result.existing) throw new Conflict('A request with this idempotency_key is still being processed; retry in a few seconds');
  if (result.existing.fingerprint !== fingerprint && result.existing.fingerprint !== sentOrder) throw new Conflict('idempotency_key was already used with a different request; use a new key for a different contact');
  const existing = await getContact(result.existing.contact_id);
  if (existing && existing.status !== 'creating') return { contact: existing, replayed: true };
  if (nowMs() - Date.parse(result.existing.created_at) < IN_FLIGHT_MS) throw new Conflict('A request with this idempotency_key is still being processed; retry in a few seconds');
  // The first request died part-way: finish it under the same contact id (the same contact: the
  // fingerprints match), charging it only if it never was.
  const pk = claimPk(principal.organizationId, principal.apiKeyId, key);
  const contact = await finishCreate({ ...draft, id: result.existing.contact_id, created_at: result.existing.created_at, updated_at: result.existing.created_at }, { pk, implicit: false });
  return { contact, replayed: false };
}

/** The durable record of a create in progress: an idempotency key's claim, or an implicit one (max). */
interface Claimed {
  pk: string;
  implicit: boolean;
}

/**
 * The contact's charge, written before the contact (`fresh`: the first try, so no earlier charge
 * is looked for; with a claim, the charge marks the create in flight). Refused for lack of credits,
 * the claim goes (nothing was charged); any refusal is answered in the spec's terms.
 */
async function chargeContact(draft: ContactRecord, claimed: Claimed | null, fresh: boolean): Promise<PendingCharge> {
  try {
    return await chargeBeforeWrite(draft.organization_id, changeIdOf(draft.id), contactPrice(draft.validation_tier), {
      reason: `contact (${draft.validation_tier})`,
      resourceId: draft.id,
      fresh,
      intent: claimed !== null,
    });
  } catch (error) {
    if (claimed && error instanceof InsufficientCreditsError) await releaseStaleClaim(claimed.pk, draft.id);
    throw refusal(error);
  }
}

/**
 * The first try of a create: the charge (one write: pools, in-flight mark and, for max, the
 * batch place), then the contact and its ledger entry (one batch write), then the claim's end.
 */
async function chargeAndWrite(draft: ContactRecord, claimed: Claimed | null): Promise<ContactRecord> {
  const charge = await chargeContact(draft, claimed, true);
  crashPoint('contact.after-debit');
  const contact: ContactRecord = { ...draft, credits_charged: charge.amount, batch_position: charge.place, ...batchSequenceOf(charge) };
  await putItems([queuedContactItem(contact), ledgerEntryOf(charge)]);
  chargeRecorded(charge);
  // Only once the contact is surely written (a batch write is not atomic): a `done` claim always has its contact.
  if (claimed) await endClaim(claimed.pk, draft.id, claimed.implicit);
  crashPoint('contact.after-queued');
  return contact;
}

/**
 * Finishes a create an interruption left part-way (a retry with its idempotency key, or recovery
 * from its claim): charged once (an earlier charge of the contact is found and kept), the contact
 * written unless it exists, the claim ended. Every step is safe to repeat.
 */
async function finishCreate(draft: ContactRecord, claimed: Claimed): Promise<ContactRecord> {
  const charge = await chargeContact(draft, claimed, false);
  crashPoint('contact.after-debit');
  if (!charge.replayed) {
    await putItems([ledgerEntryOf(charge)]);
    chargeRecorded(charge);
  }
  const contact: ContactRecord = { ...draft, status: 'queued', credits_charged: charge.amount, batch_position: charge.place, ...batchSequenceOf(charge) };
  let written = (await insertQueuedContact(contact)) ? contact : await getContact(draft.id);
  // A `creating` contact an earlier version wrote before it died: queued now, as recovery would.
  if (written?.status === 'creating') {
    const fields = { credits_charged: charge.amount, batch_position: written.batch_position ?? charge.place, ...(written.batch_position === null ? batchSequenceOf(charge) : {}), ...queueIndexKeys(written) };
    written = (await transitionContact(written, ['creating'], 'queued', fields, nowIso())) ?? (await getContact(draft.id));
  }
  if (!written) throw new Error(`contact ${draft.id} vanished during creation`);
  await endClaim(claimed.pk, draft.id, claimed.implicit);
  crashPoint('contact.after-queued');
  return written;
}

/** The max batch a charge's place is in, as the contact keeps it (absent when the charge did not say). */
const batchSequenceOf = (charge: { place: number | null; sequence?: number }): { batch_sequence?: number } =>
  charge.place !== null && charge.sequence !== undefined ? { batch_sequence: charge.sequence } : {};

function refusal(error: unknown): unknown {
  if (!(error instanceof InsufficientCreditsError)) return error;
  return new InsufficientCredits(`Insufficient credits: this contact needs ${counted(error.required, 'credit')} and the balance is ${error.available}`);
}

/**
 * Drives what interrupted creates left behind (recovery job; never charges anything itself):
 * - a claim left `creating`: charged, its contact is written as the request would have; not, the
 *   claim is released (the client saw an error, and a retry with the key creates it again);
 * - a charge still marked on the balance: its contact exists, the mark is recorded and cleared; it
 *   does not and nothing durable will write it (no claim), the charge is given back;
 * - a `creating` contact an earlier version left: queued when charged, removed when not.
 */
export async function recoverCreatingContacts(createdBeforeIso?: string): Promise<{ resumed: number; removed: number }> {
  let resumed = 0;
  let removed = 0;
  for (const { pk, draft, implicit } of await claimStaleCreates(nowMs(), CREATING_BOUND_MS, createdBeforeIso)) {
    if (await chargeOf(draft.organization_id, changeIdOf(draft.id), draft.id)) {
      await finishCreate(draft, { pk, implicit });
      resumed++;
    } else if (await releaseStaleClaim(pk, draft.id)) {
      removed++;
    }
  }
  for (const contact of await claimStaleCreating(nowMs(), CREATING_BOUND_MS, createdBeforeIso)) {
    const charged = await chargeOf(contact.organization_id, changeIdOf(contact.id), contact.id);
    if (charged) {
      const fields = { credits_charged: contact.batch_position === null ? charged.amount : contactCharge(contact.validation_tier, contact.batch_position), batch_position: contact.batch_position, ...queueIndexKeys(contact) };
      // An earlier version charged a max contact 2 and refunded 1 at an even place: that refund, once.
      if (fields.credits_charged < charged.amount) {
        await refund(contact.organization_id, `${changeIdOf(contact.id)}:batch-discount`, changeIdOf(contact.id), { reason: 'max batch: even position costs 1', resourceId: contact.id, amount: charged.amount - fields.credits_charged });
      }
      await transitionContact(contact, ['creating'], 'queued', fields, nowIso());
      resumed++;
    } else {
      await deleteCreatingContact(contact.id);
      removed++;
    }
  }
  const before = createdBeforeIso ?? new Date(nowMs() - CREATING_BOUND_MS).toISOString();
  for await (const marked of markedCharges('contact:', before)) {
    const contactId = marked.changeId.slice('contact:'.length);
    if (await getContact(contactId)) {
      // Written: record the charge if its ledger entry is missing (chargeOf), then clear the mark.
      if (!marked.recorded) await chargeOf(marked.orgId, marked.changeId, contactId);
      await clearMark(marked.orgId, marked.changeId);
    } else if (marked.mark.intent) {
      // Its claim is the durable record: the claims above finish it.
      continue;
    } else if (marked.recorded) {
      // Its ledger entry went out without the contact (a batch write cut short): refunded, recorded.
      await refund(marked.orgId, `refund:${marked.changeId}`, marked.changeId, { reason: 'contact create interrupted', resourceId: contactId });
      await clearMark(marked.orgId, marked.changeId);
      removed++;
    } else if (await reverseUnrecorded(marked.orgId, marked.changeId)) {
      removed++;
    }
  }
  return { resumed, removed };
}
