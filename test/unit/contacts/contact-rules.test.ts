import { describe, expect, it } from 'vitest';
import { contactCharge, nameFromProperties, parseValidationTier, toV1, toV2, type ContactRecord } from '../../../lambdas/contacts/contact';

const base: ContactRecord = {
  id: '00000000-0000-4000-8000-000000000001',
  organization_id: '00000000-0000-4000-8000-000000000002',
  api_key_id: 'k',
  phone: '+12125550143',
  properties: { crm_id: 7 },
  status: 'queued',
  validation_tier: 'standard',
  credits_charged: 1,
  batch_position: null,
  answer_intent: null,
  identity: null,
  error_message: null,
  callback_url: null,
  callback_secret: 'secret',
  pool_upload_id: null,
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
};

describe('max-tier batch pricing', () => {
  it('charges 2, 1, 2, 1 … so a batch of N totals ceil(N × 1.5)', () => {
    expect([1, 2, 3, 4, 5].map((place) => contactCharge('max', place))).toEqual([2, 1, 2, 1, 2]);
    for (const n of [1, 2, 5, 40, 41]) {
      const total = Array.from({ length: n }, (_, i) => contactCharge('max', i + 1)).reduce((a, b) => a + b, 0);
      expect(total).toBe(Math.ceil(n * 1.5));
    }
    expect(contactCharge('standard', 2)).toBe(1);
    expect(contactCharge('standard', null)).toBe(1);
    expect(contactCharge('max', 4)).toBe(1);
  });

  it('a max contact is never priced without its place in the batch', () => {
    for (const place of [null, 0, -1, 1.5, Number.NaN]) expect(() => contactCharge('max', place)).toThrow(/place in the batch/);
  });

  it('parses validation_tier case-insensitively and refuses anything else', () => {
    expect(parseValidationTier(undefined)).toBe('standard');
    expect(parseValidationTier('MAX')).toBe('max');
    expect(parseValidationTier('Standard')).toBe('standard');
    for (const padded of [' Standard ', ' max', 'max\n', 'max\t', 'STANDARD ']) expect(parseValidationTier(padded), JSON.stringify(padded)).toBeNull();
    expect(parseValidationTier('premium')).toBeNull();
    expect(parseValidationTier('')).toBeNull();
  });
});

describe('identity names from properties', () => {
  it('reads full_name, name, or first_name + last_name', () => {
    expect(nameFromProperties({ full_name: 'Ada Lovelace' })).toEqual({ full: 'Ada Lovelace' });
    expect(nameFromProperties({ name: 'Ada' })).toEqual({ full: 'Ada' });
    expect(nameFromProperties({ first_name: 'Ada', last_name: 'Lovelace' })).toEqual({ first: 'Ada', last: 'Lovelace' });
    expect(nameFromProperties({ firstName: 'Ada', lastName: 'Lovelace' })).toEqual({ first: 'Ada', last: 'Lovelace' });
    expect(nameFromProperties({ first_name: 'Ada' })).toBeUndefined();
    expect(nameFromProperties({ full_name: '   ', name: 42 })).toBeUndefined();
  });
});

describe('v1 and v2 views', () => {
  it('v1 shows the Answer Intent value and omits the v2 fields', () => {
    const view = toV1({ ...base, status: 'completed', answer_intent: 'Likely Answer', identity: 'High' });
    expect(view.service_status).toBe('Likely Answer');
    expect('service_identity' in view).toBe(false);
    expect(view.message).toBeNull();
  });

  it('v2 shows the nine-tier status; without identity, the Answer Intent value and both v2-only fields null', () => {
    const withIdentity = toV2({ ...base, status: 'completed', answer_intent: 'Likely Answer', identity: 'High' });
    expect(withIdentity).toMatchObject({ service_status: '1 - Likely Right-Party Answer', service_answer_intent: 'Likely Answer', service_identity: 'High' });
    const unknownIdentity = toV2({ ...base, status: 'completed', answer_intent: 'Likely Voicemail', identity: 'Unknown' });
    expect(unknownIdentity).toMatchObject({ service_status: '6 - Likely Voicemail', service_answer_intent: 'Likely Voicemail', service_identity: 'Unknown' });
    const without = toV2({ ...base, status: 'completed', answer_intent: 'Likely Voicemail', identity: null });
    expect(without).toMatchObject({ service_status: 'Likely Voicemail', service_answer_intent: null, service_identity: null });
    // Contacts processed before identity existed have no identity attribute at all.
    const { identity: _dropped, ...legacy } = { ...base, status: 'completed' as const, answer_intent: 'Non-Mobile' as const, identity: null };
    expect(toV2(legacy as typeof base)).toMatchObject({ service_status: 'Non-Mobile', service_answer_intent: null, service_identity: null });
  });

  it('has a human message while queued or processing, none when terminal, and never shows internal state', () => {
    expect(toV2(base).message).toMatch(/Queued/);
    expect(toV2({ ...base, status: 'processing' }).message).toMatch(/Processing/);
    expect(toV2({ ...base, status: 'failed', error_message: 'x' }).message).toBeNull();
    expect(toV1({ ...base, status: 'creating' }).status).toBe('queued');
    expect(JSON.stringify(toV2(base))).not.toContain('secret');
  });
});
