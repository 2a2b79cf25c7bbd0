import { afterAll, describe, expect, it } from 'vitest';
import { consoleToken } from '../../support/console-token';
import { dribbleBody, firstAnswer, rawClient, type RawClient } from '../../support/raw-client';
import { useTestService } from '../../support/runtime';
import { waitFor } from '../../support/wait';

// The console's API reads bodies as the public API does (local/request-bodies.ts): its access token
// is checked before the body is read, and a signed-in person's body counts against their
// organization's budget.
const service = useTestService();
const MB = 1024 * 1024;
const open: RawClient[] = [];
afterAll(() => open.forEach((c) => c.socket.destroy()));

describe('console API request bodies', () => {
  it('a request without a valid token is answered 401 before its body is read, and holds no budget', async () => {
    const res = await fetch(`${service.url}/console/api/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array(5 * MB) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Sign in to use the console' });
    const forged = await fetch(`${service.url}/console/api/webhooks`, { method: 'POST', headers: { authorization: 'Bearer not.a.jwt', 'content-type': 'application/json' }, body: new Uint8Array(5 * MB) });
    expect(forged.status).toBe(401);
    expect(service.runtime.bodyBudgets.inUse()).toBe(0);
  });

  it("a signed-in person's body counts against their organization's budget while it arrives, and is released when they go", async () => {
    const token = await consoleToken(service, service.userId);
    const port = Number(new URL(service.url).port);
    const client = rawClient(port, `POST /console/api/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${MB}\r\n\r\n`);
    open.push(client);
    dribbleBody(client, 100);
    await waitFor("the organization's share held", () => (service.runtime.bodyBudgets.inUse(service.organizationId) === MB ? true : null), 60_000, 20);
    expect(firstAnswer(client.received())).toBeNull();
    client.socket.destroy();
    await waitFor('the share released', () => (service.runtime.bodyBudgets.inUse() === 0 ? true : null), 60_000, 20);
  });
});
