import { nowIso } from '../platform/clock';
import { sha256Hex } from '../platform/ids';
import { logger } from '../platform/logger';
import { refund } from '../credits/credits';
import { emitEvent, enqueueCallback, type EventType } from '../events/events';
import { deriveStatus, type AnswerIntent, type IdentityBand } from '../classification';
import { toV1, type ContactRecord, type ContactStatus } from './contact';
import { transitionContact } from './contact-repository';

// How a contact leaves `queued`/`processing`: completed (event + callback), failed (refund, event +
// callback) or discarded (refund). Each step is safe to repeat: the refund is keyed by the contact,
// the state change is conditional, and the event id is derived from the contact and its outcome so
// a retried step re-emits the same event (receivers de-duplicate on it).

export async function completeContact(contact: ContactRecord, result: { answerIntent: AnswerIntent; identity: IdentityBand | null }): Promise<ContactRecord | null> {
  const done = await transitionContact(contact, ['processing'], 'completed', { answer_intent: result.answerIntent, identity: result.identity, error_message: null }, nowIso());
  if (done) await announce(done, 'contact.completed');
  return done;
}

export async function failContact(contact: ContactRecord, message: string): Promise<ContactRecord | null> {
  return endWithRefund(contact, ['queued', 'processing'], 'failed', message, 'contact.failed');
}

/** A contact the service cannot process (see docs/contacts.md): refunded, no event. */
export async function discardContact(contact: ContactRecord, message: string): Promise<ContactRecord | null> {
  return endWithRefund(contact, ['queued', 'processing'], 'discarded', message, null);
}

async function endWithRefund(
  contact: ContactRecord,
  from: ContactStatus[],
  to: 'failed' | 'discarded',
  message: string,
  eventType: EventType | null,
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
  const ended = await transitionContact(contact, from, to, { error_message: message }, nowIso());
  if (ended && eventType) await announce(ended, eventType);
  return ended;
}

/** `contact.*` data: the Contact (v1 shape, service_status unchanged) plus service_tier and service_identity. */
export function contactEventData(contact: ContactRecord): Record<string, unknown> {
  const tier = contact.status === 'completed' && contact.answer_intent ? deriveStatus(contact.answer_intent, contact.identity) : null;
  return {
    contact: {
      ...toV1(contact),
      service_answer_intent: contact.status === 'completed' ? contact.answer_intent : null,
      service_tier: tier,
      service_identity: contact.status === 'completed' ? contact.identity : null,
    },
  };
}

async function announce(contact: ContactRecord, type: EventType): Promise<void> {
  const id = `evt_${sha256Hex(`${contact.id}:${type}`).slice(0, 32)}`;
  const event = await emitEvent({ organizationId: contact.organization_id, type, data: contactEventData(contact), id });
  if (contact.callback_url && contact.callback_secret) {
    try {
      await enqueueCallback({ organizationId: contact.organization_id, url: contact.callback_url, secret: contact.callback_secret, event });
    } catch (error) {
      logger.error('contact callback could not be queued', { contact_id: contact.id, error: error as Error });
    }
  }
}
