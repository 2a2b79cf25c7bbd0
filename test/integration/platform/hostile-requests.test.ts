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
