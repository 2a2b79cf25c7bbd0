import { afterAll, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';

// The real `npm start` process: a request that throws outside the handler's promise would end it.
describe('npm start survives hostile requests', () => {
  afterAll(killAllChildRuntimes);

  it('a truncated multipart upload answers 400 and the process keeps serving', async () => {
    const child = await startChildRuntime(freshDataDir());
    const auth = { authorization: `Bearer ${child.apiKey}` };
    const res = await fetch(`${child.url}/api/v1/uploads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Unexpected end of form/);
    const next = await fetch(`${child.url}/api/v1/credits/balance`, { headers: auth });
    expect(next.status).toBe(200);
    expect(child.process.exitCode).toBeNull();
  });
});
