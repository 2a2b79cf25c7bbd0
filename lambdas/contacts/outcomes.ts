import { nowIso } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import { sha256Hex } from '../platform/ids';
import { refund } from '../credits/credits';
import { buildEvent, type EventData, type EventType } from '../webhooks/events';
import { CONTACT_COMPLETED, CONTACT_FAILED } from './contact-events';

type ContactEvent = typeof CONTACT_COMPLETED | typeof CONTACT_FAILED;
import { flushOutbox, outboxFields, type OutboxEntry } from '../webhooks/outbox';
import type { AnswerIntent, IdentityBand } from '../classification';
import { toEventContact, type ContactRecord, type ContactStatus } from './contact';
import { contactItemKey, transitionContact } from './contact-repository';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';

// How a contact leaves `queued`/`processing`: completed (event + callback), failed (refund, event +
// callback) or discarded (refund). Each step is safe to repeat: the refund is keyed by the contact,
// the state change is conditional, and the event id is derived from the contact and its outcome so
// a retried step re-emits the same event (receivers de-duplicate on it).

export async function completeContact(ports: DeliveryPorts, contact: ContactRecord, result: { answerIntent: AnswerIntent; identity: IdentityBand | null }): Promise<ContactRecord | null> {
  const at = nowIso();
  const fields = { answer_intent: result.answerIntent, identity: result.identity, error_message: null };
  return endWithEvent(ports, contact, ['processing'], 'completed', fields, CONTACT_COMPLETED, at);
}

export async function failContact(ports: DeliveryPorts, contact: ContactRecord, message: string): Promise<ContactRecord | null> {
  return endWithRefund(ports, contact, ['queued', 'processing'], 'failed', message, CONTACT_FAILED);
}

/** A contact the service cannot process (see docs/contacts.md): refunded, no event. */
export async function discardContact(ports: DeliveryPorts, contact: ContactRecord, message: string): Promise<ContactRecord | null> {
  return endWithRefund(ports, contact, ['queued', 'processing'], 'discarded', message, null);
}

async function endWithRefund(
  ports: DeliveryPorts,
  contact: ContactRecord,
  from: ContactStatus[],
  to: 'failed' | 'discarded',
  message: string,
  definition: ContactEvent | null,
): Promise<ContactRecord | null> {
  // Refund first: a crash between the two leaves a contact a retry finishes, never a lost refund.
  // Only the outcome step of the contact's own pool reaches here, so it cannot race a completion.
  if (contact.credits_charged > 0) {
    await refund(contact.organization_id, `refund:contact:${contact.id}`, `contact:${contact.id}`, {
      reason: `contact ${to}`,
      resourceId: contact.id,
      amount: contact.credits_charged,
    });
  }
  return endWithEvent(ports, contact, from, to, { error_message: message }, definition, nowIso());
}

/**
 * The terminal state change and its event (with the callback) in one conditional write, then the
 * event is published; a crash in between is repaired by the outbox drain.
 */
async function endWithEvent(
  ports: DeliveryPorts,
  contact: ContactRecord,
  from: ContactStatus[],
  to: 'completed' | 'failed' | 'discarded',
  fields: Partial<ContactRecord>,
  definition: ContactEvent | null,
  at: string,
): Promise<ContactRecord | null> {
  const key = contactItemKey(contact.id);
  const outbox: OutboxEntry[] = [];
  if (definition) {
    const after: ContactRecord = { ...contact, ...fields, status: to, updated_at: at };
    const event = buildEvent(definition, contactEventData(after), contactEventId(contact.id, definition.type));
    const callback = contact.callback_url && contact.callback_secret ? { url: contact.callback_url, secret: contact.callback_secret } : null;
    outbox.push({ organization_id: contact.organization_id, event, callback });
  }
  const ended = await transitionContact(contact, from, to, { ...fields, ...outboxFields(key, outbox, at) }, at);
  if (ended) crashPoint(`contact.after-${to}`);
  if (ended && outbox.length) await flushOutbox(ports, key);
  return ended;
}

/** `contact.*` data: the contact as `toEventContact` shows it (docs/contacts.md). */
export function contactEventData(contact: ContactRecord): EventData<typeof CONTACT_COMPLETED> {
  return { contact: toEventContact(contact) };
}

/** Stable per contact and outcome: a re-published event is the same event for receivers. */
export const contactEventId = (contactId: string, type: EventType): string => `evt_${sha256Hex(`${contactId}:${type}`).slice(0, 32)}`;
