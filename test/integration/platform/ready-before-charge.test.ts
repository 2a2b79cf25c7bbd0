import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '../../../lambdas/platform/config';
import { getBalance } from '../../../lambdas/credits/credits';
import { newCustomer } from '../../support/customer';
import { useTestService } from '../../support/runtime';

// A stage with CloudFront downloads on but no signing key in place (the prod stage right after
// deploy): paid work is refused with 503 naming what is missing, and nothing is charged.
const CLOUDFRONT = { DOWNLOADS_CLOUDFRONT_DOMAIN: 'd111111abcdef8.cloudfront.net', DOWNLOADS_CLOUDFRONT_KEY_ID: 'K2JCJMDEHXQW5F' };
beforeAll(() => {
  Object.assign(process.env, CLOUDFRONT);
});
const service = useTestService();
afterAll(() => {
  for (const k of Object.keys(CLOUDFRONT)) delete process.env[k];
  reloadConfig();
});

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `(212) 555-${String(1000 + i).padStart(4, '0')}`);

async function expectNotReady(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  const body = (await res.json()) as { detail: string };
  expect(body.detail).toMatch(/not ready to take paid work; nothing was charged\. Missing: CloudFront download signing key/);
  // The client is told what, not where: no configuration names or ARNs.
  expect(body.detail).not.toMatch(/DOWNLOADS_|arn:/);
}

describe('ready before it charges', () => {
  it('an upload create is 503 with nothing stored or charged', async () => {
    const { org, key } = await newCustomer({ name: 'Not ready', credits: 1000, subscriptionActive: true });
    await expectNotReady(await service.request('POST', '/api/v1/uploads', { key, body: { phone_numbers: numbers(120) } }));
    expect((await getBalance(org.id)).total).toBe(1000);
    const list = (await (await service.request('GET', '/api/v1/uploads', { key })).json()) as unknown;
    expect(JSON.stringify(list)).not.toMatch(/"id"/);
  });

  it('a contact create is 503 with nothing charged, and the same idempotency key is a first try later', async () => {
    const { org, key } = await newCustomer({ name: 'Not ready contacts', credits: 10 });
    const body = { phone: '(212) 555-0143', validation_tier: 'max', idempotency_key: 'k-1' };
    await expectNotReady(await service.request('POST', '/api/v1/contacts', { key, body }));
    await expectNotReady(await service.request('POST', '/api/v2/contacts', { key, body }));
    expect((await getBalance(org.id)).total).toBe(10);
    const list = (await (await service.request('GET', '/api/v1/contacts', { key })).json()) as unknown;
    expect(JSON.stringify(list)).not.toMatch(/"id"/);

    // The operator puts the key in place (a new configuration is checked afresh): the same request is a first try.
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    reloadConfig();
    try {
      const created = await service.request('POST', '/api/v1/contacts', { key, body });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { credits_charged: number }).credits_charged).toBe(2);
      expect((await getBalance(org.id)).total).toBe(8);
    } finally {
      delete process.env.DOWNLOADS_SIGNING_PRIVATE_KEY;
      reloadConfig();
    }
  });

  it('validation still answers first: a bad request is 400, not 503', async () => {
    const res = await service.request('POST', '/api/v1/contacts', { body: { phone: 'not a phone' } });
    expect(res.status).toBe(400);
  });
});
