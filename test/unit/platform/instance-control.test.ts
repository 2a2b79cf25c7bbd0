import { afterEach, describe, expect, it } from 'vitest';
import { instanceDeliveryQueue, parseEnqueue, startInstanceControl, type InstanceControl } from '../../../local/instance-control';

// The running instance's loopback endpoint for deliveries an admin command raises: only its token
// is heard, only one well-formed request is acted on.

let control: InstanceControl | null = null;
afterEach(async () => {
  await control?.stop();
  control = null;
});

describe('instance control endpoint', () => {
  it('enqueues a delivery handed over with its token, and nothing else', async () => {
    const enqueued: [string, number][] = [];
    control = await startInstanceControl({ enqueue: async (id, due) => void enqueued.push([id, due]) });
    expect(control.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await instanceDeliveryQueue(control).enqueue('del_1', 1_700_000_000_000);
    expect(enqueued).toEqual([['del_1', 1_700_000_000_000]]);

    const post = (headers: Record<string, string>, body: string, path = '/deliveries') => fetch(`${control!.url}${path}`, { method: 'POST', headers, body });
    const auth = { authorization: `Bearer ${control.token}` };
    expect((await post({}, '{"delivery_id":"del_2","due_at_ms":1}')).status).toBe(401);
    expect((await post({ authorization: `Bearer ${control.token}x` }, '{"delivery_id":"del_2","due_at_ms":1}')).status).toBe(401);
    expect((await post(auth, '{"delivery_id":"del_2","due_at_ms":1}', '/other')).status).toBe(404);
    expect((await post(auth, 'not json')).status).toBe(400);
    expect((await post(auth, '{"delivery_id":"","due_at_ms":1}')).status).toBe(400);
    expect((await post(auth, 'x'.repeat(5000))).status).toBe(413);
    expect(enqueued).toHaveLength(1);
  });

  it('a hand-over to an instance that is gone is no error of the command (the sweeper finds the record)', async () => {
    control = await startInstanceControl({ enqueue: async () => undefined });
    const gone = { url: control.url, token: control.token };
    await control.stop();
    control = null;
    await expect(instanceDeliveryQueue(gone).enqueue('del_1', 0)).resolves.toBeUndefined();
  });

  it('reads only a delivery id and a finite due time', () => {
    expect(parseEnqueue('{"delivery_id":"d","due_at_ms":5}')).toEqual({ deliveryId: 'd', dueAtMs: 5 });
    expect(parseEnqueue('{"delivery_id":"d","due_at_ms":"5"}')).toBeNull();
    expect(parseEnqueue('{"delivery_id":5,"due_at_ms":5}')).toBeNull();
    expect(parseEnqueue('{"delivery_id":"d"}')).toBeNull();
    expect(parseEnqueue('[]')).toBeNull();
    expect(parseEnqueue('null')).toBeNull();
  });
});
