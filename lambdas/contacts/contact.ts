import type { StoredSecret } from '../webhooks/secret-sealer';
import { deriveStatus, type AnswerIntent, type IdentityBand } from '../classification/vocabulary';

export type ContactStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'discarded';
export type ValidationTier = 'standard' | 'max';

/** The stored contact. `creating` is internal: charged or being charged, not yet visible. */
export interface ContactRecord {
  id: string;
  organization_id: string;
  api_key_id: string;
  phone: string;
  properties: Record<string, unknown>;
  status: ContactStatus | 'creating';
  validation_tier: ValidationTier;
  credits_charged: number;
  /** Position in the organization's queued max-tier batch (1-based); decides the 2, 1, 2, 1 charge. */
  batch_position: number | null;
  /**
   * Which of the organization's max batches that position is in (how many batches had closed
   * before it was charged): the pool moves the batch it closes, and only it. Absent on contacts
   * written before it was kept (and on the rare charge whose answer was lost): the pool moves them
   * with the first batch it closes.
   */
  batch_sequence?: number;
  answer_intent: AnswerIntent | null;
  identity: IdentityBand | null;
  error_message: string | null;
  callback_url: string | null;
  /** Sealed under the organization and callback URL (older items: the plaintext string). */
  callback_secret: StoredSecret | null;
  pool_upload_id: string | null;
  created_at: string;
  updated_at: string;
}

const MESSAGES: Partial<Record<ContactStatus, string>> = {
  queued: 'Queued: results typically arrive within 24-48 hours.',
  processing: 'Processing: the number is being classified.',
};

export const messageFor = (status: ContactStatus): string | null => MESSAGES[status] ?? null;

/**
 * Spec pricing rule 4, the 2-1-2-1 rule: what one contact costs, decided once, before it is
 * charged. A standard contact costs 1; a max contact costs by its place in the organization's
 * queued max batch (1-based): 2 at an odd place, 1 at an even one, so a batch of N max contacts
 * costs ceil(N × 1.5). The place and the charge are taken in one write (create-contact.ts).
 */
export function contactCharge(tier: ValidationTier, batchPlace: number | null): number {
  if (tier === 'standard') return 1;
  if (batchPlace === null || !Number.isInteger(batchPlace) || batchPlace < 1) throw new Error(`a max contact needs its place in the batch (got ${batchPlace})`);
  return batchPlace % 2 === 1 ? 2 : 1;
}

/** Case-insensitive; null for anything else. */
export function parseValidationTier(raw: string | undefined): ValidationTier | null {
  if (raw === undefined) return 'standard';
  // Case-insensitive as the spec says, nothing more: ' max' is another value (a 400), as uploads refuse it.
  const value = raw.toLowerCase();
  return value === 'standard' || value === 'max' ? value : null;
}

/**
 * Properties keys that carry a name for Identity, checked in this order: `full_name`, `name`, or
 * `first_name` + `last_name` (also camelCase `firstName`/`lastName`/`fullName`).
 */
export function nameFromProperties(properties: Record<string, unknown>): { full?: string; first?: string; last?: string } | undefined {
  const text = (key: string) => {
    const value = properties[key];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const full = text('full_name') ?? text('fullName') ?? text('name');
  if (full) return { full };
  const first = text('first_name') ?? text('firstName');
  const last = text('last_name') ?? text('lastName');
  return first && last ? { first, last } : undefined;
}

type PublicStatus = ContactStatus;

interface ContactViewBase {
  id: string;
  organization_id: string;
  phone: string;
  properties: Record<string, unknown>;
  status: PublicStatus;
  service_status: string | null;
  error_message: string | null;
  message: string | null;
  validation_tier: ValidationTier;
  credits_charged: number;
  created_at: string;
  updated_at: string;
}

/** v1's service_status is the Answer Intent value. */
export interface ContactV1View extends ContactViewBase {
  service_status: AnswerIntent | null;
}
export interface ContactV2View extends ContactViewBase {
  service_answer_intent: string | null;
  service_identity: string | null;
}

/**
 * A contact's result fields, the one source of both API views and the `contact.*` events, so they
 * cannot disagree. Without identity (no name in its properties, or processed before identity
 * existed) the tier is the Answer Intent value and the two identity-era fields are null (spec,
 * Contact: "The two v2-only fields are null for contacts whose batch was processed without
 * identity").
 */
export interface ContactResult {
  /** The Answer Intent value once completed: v1's service_status. */
  answerIntent: AnswerIntent | null;
  /** The nine-tier value (the Answer Intent value without identity): v2's service_status, the events' service_tier. */
  tier: string | null;
  service_answer_intent: AnswerIntent | null;
  service_identity: IdentityBand | null;
}

export function contactResult(contact: ContactRecord): ContactResult {
  const answerIntent = contact.status === 'completed' ? contact.answer_intent : null;
  // `identity` is absent (not null) on contacts processed before identity existed.
  const identity = answerIntent !== null ? (contact.identity ?? null) : null;
  return {
    answerIntent,
    tier: answerIntent !== null ? deriveStatus(answerIntent, identity) : null,
    service_answer_intent: identity !== null ? answerIntent : null,
    service_identity: identity,
  };
}

/** v1: service_status is the Answer Intent value; the two v2 fields are absent. */
export function toV1(contact: ContactRecord): ContactV1View {
  return { ...base(contact), service_status: contactResult(contact).answerIntent };
}

/** v2: service_status is the nine-tier value, plus service_answer_intent and service_identity. */
export function toV2(contact: ContactRecord): ContactV2View {
  const result = contactResult(contact);
  return { ...base(contact), service_status: result.tier, service_answer_intent: result.service_answer_intent, service_identity: result.service_identity };
}

export interface ContactEventView extends ContactV1View {
  service_answer_intent: AnswerIntent | null;
  service_tier: string | null;
  service_identity: IdentityBand | null;
}

/**
 * The contact in `contact.*` events and callbacks: the v1 Contact (service_status unchanged, the
 * Answer Intent value) plus service_tier (v2's service_status) and v2's two fields, all from
 * `contactResult`, so an event and a GET of the same contact say the same.
 */
export function toEventContact(contact: ContactRecord): ContactEventView {
  const result = contactResult(contact);
  return { ...toV1(contact), service_answer_intent: result.service_answer_intent, service_tier: result.tier, service_identity: result.service_identity };
}

function base(contact: ContactRecord): Omit<ContactViewBase, 'service_status'> {
  const status = contact.status === 'creating' ? 'queued' : contact.status;
  return {
    id: contact.id,
    organization_id: contact.organization_id,
    phone: contact.phone,
    properties: contact.properties,
    status,
    error_message: contact.error_message,
    message: messageFor(status),
    validation_tier: contact.validation_tier,
    credits_charged: contact.credits_charged,
    created_at: contact.created_at,
    updated_at: contact.updated_at,
  };
}
