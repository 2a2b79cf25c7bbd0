import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';

const service = useTestService();

const multipart = (body: string) =>
  service.request('POST', '/api/v1/uploads', { body, headers: { 'content-type': 'multipart/form-data; boundary=b' } });

describe('malformed multipart bodies', () => {
  it('a file part cut off before its closing boundary answers 400 and the service stays up', async () => {
    const res = await multipart('--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^Malformed multipart body: Unexpected end of form/);
    // The process is still serving.
    expect((await service.request('GET', '/api/v1/credits/balance')).status).toBe(200);
  });

  it('a non-file part cut off the same way answers 400 too', async () => {
    const res = await multipart('--b\r\nContent-Disposition: form-data; name="other"; filename="x.bin"\r\n\r\nabc');
    expect(res.status).toBe(400);
    expect((await service.request('GET', '/api/v1/credits/balance')).status).toBe(200);
  });

  it('a body that is not multipart at all answers 400', async () => {
    const res = await multipart('no boundary here');
    expect(res.status).toBe(400);
  });
});

describe('JSON nesting depth (bounded at 64 levels)', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'x';
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };
  // Built as text: JSON.stringify itself overflows the stack on 10,000 levels.
  const deepText = (levels: number) => '{"a":'.repeat(levels) + '"x"' + '}'.repeat(levels);
  const DEPTH_DETAIL = 'JSON body nests objects and arrays more than 64 levels deep';

  it('contact properties nested 10,000 deep: 400 naming the limit, not 500', async () => {
    const body = `{"phone":"+12125550143","properties":${deepText(10_000)}}`;
    const res = await service.request('POST', '/api/v1/contacts', { body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: DEPTH_DETAIL });
  });

  it('JSON upload values nested 10,000 deep: 400 naming the limit, not 500', async () => {
    const body = `{"phone_column":"phone","contacts":[{"phone":"+12125550143","extra":${deepText(10_000)}}]}`;
    const res = await service.request('POST', '/api/v1/uploads', { body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: DEPTH_DETAIL });
  });

  it('just past the limit is refused; at the limit the body reaches validation', async () => {
    // The body object is one level; nested(n) adds n.
    const over = await service.request('POST', '/api/v1/contacts', { body: { phone: 'not a phone', properties: nested(64) } });
    expect(await over.json()).toEqual({ detail: DEPTH_DETAIL });
    const at = await service.request('POST', '/api/v1/contacts', { body: { phone: 'not a phone', properties: nested(63) } });
    expect(at.status).toBe(400);
    expect(((await at.json()) as { detail: string }).detail).not.toBe(DEPTH_DETAIL);
  });
});

describe('JSON bodies that are not UTF-8', () => {
  it('400, not a body stored with U+FFFD in place of the bytes', async () => {
    // {"url":"https://127.0.0.1/b<0xe9>"}: Latin-1 é, not a UTF-8 sequence.
    const body = Buffer.concat([Buffer.from('{"url":"https://127.0.0.1/b'), Buffer.from([0xe9]), Buffer.from('"}')]);
    for (const path of ['/api/v1/webhooks', '/api/v2/contacts']) {
      const res = await service.request('POST', path, { body, headers: { 'content-type': 'application/json' } });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe('Malformed JSON body: it is not valid UTF-8');
    }
    // A UTF-8 é is fine as far as the parser goes (the webhook's own rules then apply).
    const fine = await service.request('POST', '/api/v2/contacts', { body: Buffer.from('{"phone":"+12025550143","properties":{"first_name":"Zoë","last_name":"Côté"},"validation_tier":"standard"}'), headers: { 'content-type': 'application/json' } });
    expect(fine.status, await fine.clone().text()).toBe(201);
  });
});
