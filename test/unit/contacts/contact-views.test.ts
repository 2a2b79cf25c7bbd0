import { describe, expect, it } from 'vitest';
import { toV1, toV2, type ContactRecord } from '../../../lambdas/contacts/contact';
import { contactEventData } from '../../../lambdas/contacts/outcomes';

// One truth for a contact (issue 32): each fixture below is read through the v1 view, the v2 view
// and the contact.* event data, and the three must say the same thing about it.
const queued: ContactRecord = {
  id: '00000000-0000-4000-8000-000000000011',
  organization_id: '00000000-0000-4000-8000-000000000012',
  api_key_id: 'k',
  phone: '+12125550143',
  properties: { crm_id: 7 },
  status: 'queued',
  validation_tier: 'max',
  credits_charged: 2,
  batch_position: 1,
  answer_intent: null,
  identity: null,
  error_message: null,
  callback_url: null,
  callback_secret: null,
  pool_upload_id: null,
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
};

const fixtures: Array<{ name: string; contact: ContactRecord; expected: { v1Status: string | null; tier: string | null; answerIntent: string | null; identity: string | null } }> = [
  {
    name: 'completed without a name (no identity)',
    contact: { ...queued, status: 'completed', answer_intent: 'Likely Voicemail', identity: null },
    expected: { v1Status: 'Likely Voicemail', tier: 'Likely Voicemail', answerIntent: null, identity: null },
  },
  {
    name: 'completed with a name',
    contact: { ...queued, status: 'completed', answer_intent: 'Likely Answer', identity: 'High', properties: { full_name: 'Ada Lovelace' } },
    expected: { v1Status: 'Likely Answer', tier: '1 - Likely Right-Party Answer', answerIntent: 'Likely Answer', identity: 'High' },
  },
  {
    name: 'completed with a name and no identity signal',
    contact: { ...queued, status: 'completed', answer_intent: 'Likely Call Screening', identity: 'Unknown' },
    expected: { v1Status: 'Likely Call Screening', tier: '4 - Likely Call Screening', answerIntent: 'Likely Call Screening', identity: 'Unknown' },
  },
  {
    name: 'completed with a low identity',
    contact: { ...queued, status: 'completed', answer_intent: 'Likely Answer', identity: 'Low' },
    expected: { v1Status: 'Likely Answer', tier: '8 - Likely Wrong Number', answerIntent: 'Likely Answer', identity: 'Low' },
  },
  {
    name: 'failed',
    contact: { ...queued, status: 'failed', error_message: 'No result could be produced for this number; its credits were refunded. You can submit it again.' },
    expected: { v1Status: null, tier: null, answerIntent: null, identity: null },
  },
];

describe('the API views and the contact.* event are built from one function', () => {
  it.each(fixtures)('$name', ({ contact, expected }) => {
    const v1 = toV1(contact);
    const v2 = toV2(contact);
    const event = contactEventData(contact).contact;
    expect(v1.service_status).toBe(expected.v1Status);
    expect(v2).toMatchObject({ service_status: expected.tier, service_answer_intent: expected.answerIntent, service_identity: expected.identity });
    // The event: the v1 contact unchanged, plus v2's status as service_tier and v2's two fields.
    expect(event).toEqual({ ...v1, service_tier: v2.service_status, service_answer_intent: v2.service_answer_intent, service_identity: v2.service_identity });
    const { service_answer_intent: _a, service_identity: _i, service_status: _s, ...v2Rest } = v2;
    const { service_status: _v1s, ...v1Rest } = v1;
    expect(v2Rest).toEqual(v1Rest);
  });

  it('a contact processed before identity existed (no identity attribute) reads as one without identity everywhere', () => {
    const { identity: _dropped, ...legacy } = { ...queued, status: 'completed' as const, answer_intent: 'Non-Mobile' as const };
    const contact = legacy as ContactRecord;
    expect(toV2(contact)).toMatchObject({ service_status: 'Non-Mobile', service_answer_intent: null, service_identity: null });
    expect(contactEventData(contact).contact).toMatchObject({ service_status: 'Non-Mobile', service_tier: 'Non-Mobile', service_answer_intent: null, service_identity: null });
  });
});
