import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getJson, MAX_RETRY_AFTER_MS, retryAfterMs, type ProviderHttp } from '../../../lambdas/classification/provider-http';
import { ANSWER_INTENT_RULES, RULES_VERSION } from '../../../lambdas/classification/rules';

const headers = (h: Record<string, string>) => new Headers(h);

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it.each([
    [{ 'retry-after': '2' }, undefined, 2000],
    [{ 'retry-after': '0.5' }, undefined, 500],
    [{ 'retry-after': 'Wed, 25 Nov 2026 12:00:03 GMT' }, undefined, 3000],
    [{ 'retry-after': '3600' }, undefined, MAX_RETRY_AFTER_MS], // capped: a chunk is not held for an hour
    [{ 'retry-after': '0' }, undefined, null], // no wait asked: backoff decides
    [{ 'retry-after': '-5' }, undefined, null],
    [{ 'retry-after': 'soon' }, undefined, null],
    [{ 'retry-after': 'Wed, 25 Nov 2026 11:59:00 GMT' }, undefined, null], // in the past
    [{}, undefined, null],
    [{ 'x-ratelimit-reset': '4' }, 'x-ratelimit-reset', 4000],
    [{ 'retry-after': '1', 'x-ratelimit-reset': '4' }, 'x-ratelimit-reset', 1000],
    [{ 'retry-after': 'soon', 'x-ratelimit-reset': '4' }, 'x-ratelimit-reset', 4000],
    [{ 'x-ratelimit-reset': 'NaN' }, 'x-ratelimit-reset', null],
    [{ 'x-ratelimit-reset': '4' }, undefined, null],
  ] as [Record<string, string>, string | undefined, number | null][])('%j (%s) → %s', (h, own, ms) => {
    expect(retryAfterMs(headers(h), own, now)).toBe(ms);
  });
});

describe('getJson', () => {
  const http = (fetchImpl: typeof fetch, attempts = 2): ProviderHttp => ({ label: 'Fake', checkHint: 'check FAKE_KEY', fetch: fetchImpl, limiter: { take: async () => {} }, timeoutMs: 1000, attempts });
  const url = new URL('http://127.0.0.1:9/lookup');
  it('retries a 200 whose body is not JSON, then reports the number failed', async () => {
    let calls = 0;
    const out = await getJson(
      http(async () => {
        calls++;
        return new Response('<html>proxy</html>', { status: 200 });
      }),
      url,
      {},
    );
    expect(calls).toBe(2);
    expect(out).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^Fake answered 200 without JSON/) });
  });
  it('takes a limiter token before every try', async () => {
    let tokens = 0;
    const cfg = { ...http(async () => new Response('{}', { status: 503 }), 3), limiter: { take: async () => void tokens++ } };
    await getJson(cfg, url, {});
    expect(tokens).toBe(3);
  });
  it('default verdicts: 404 no signal, other 4xx a configuration error naming what to check', async () => {
    expect(await getJson(http(async () => new Response('{}', { status: 404 })), url, {})).toEqual({ kind: 'no-signal' });
    await expect(getJson(http(async () => new Response('{"message":"no"}', { status: 402 })), url, {})).rejects.toThrow('Fake answered 402: check FAKE_KEY ({"message":"no"})');
  });
});

describe('the documented rule table', () => {
  it('docs/classification.md shows the current version and every rule', () => {
    const doc = readFileSync('docs/classification.md', 'utf8');
    expect(doc).toContain(`## Answer Intent rule table (version \`${RULES_VERSION}\`)`);
    const table = doc.slice(doc.indexOf('## Answer Intent rule table'), doc.indexOf('## Identity'));
    const rows = table.split('\n').filter((l) => l.startsWith('| ')).map((l) => l.split(' | ')[0]!.slice(2)).slice(2); // past the header and its rule
    expect(rows).toEqual(ANSWER_INTENT_RULES.map((r) => r.id));
  });
});
