import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { reloadConfig } from '../../../lambdas/platform/config';
import { startReceiver } from '../webhooks/receiver';

// The webhook receiver is on loopback: the development setting (test/support/restore-env.ts puts the environment back).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
reloadConfig();

// Customer-supplied keys are data, never object machinery: a contact's `properties` may use
// `constructor`, `__proto__` or `prototype` at any depth, and they are stored and echoed like any
// other key (they gave a 500, or vanished). Sent as raw JSON text: JSON.parse keeps `__proto__` as
// an own key, as any client's JSON does.

const service = useTestService();

const HOSTILE = [
  '{"constructor":{"a":1}}',
  '{"__proto__":{"polluted":true},"b":2}',
  '{"prototype":"p","constructor":"c","__proto__":null}',
  '{"x":{"prototype":1,"constructor":{"name":"Set"}}}',
  '{"x":[{"__proto__":{"polluted":true}},{"constructor":{"name":"Map"}}]}',
  '{"constructor":{"name":"Boolean"},"toString":"t","hasOwnProperty":1,"valueOf":[]}',
];

const post = (path: string, json: string) => service.request('POST', path, { body: json, headers: { 'content-type': 'application/json' } });
/** The body's text as the service sent it: compared as text, so an own `__proto__` key counts. */
const propertiesText = (body: string) => JSON.stringify((JSON.parse(body) as { properties: unknown }).properties);

describe('contact properties with prototype-named keys', () => {
  HOSTILE.forEach((properties, i) => {
    it(`stored and echoed exactly: ${properties}`, async () => {
      const created = await post('/api/v2/contacts', `{"phone":"+1212555${String(4100 + i)}","properties":${properties}}`);
      expect(created.status).toBe(201);
      const text = await created.text();
      expect(propertiesText(text)).toBe(JSON.stringify(JSON.parse(properties)));
      const id = (JSON.parse(text) as { id: string }).id;
      for (const version of ['v1', 'v2']) {
        const read = await service.request('GET', `/api/${version}/contacts/${id}`);
        expect(read.status).toBe(200);
        expect(propertiesText(await read.text())).toBe(JSON.stringify(JSON.parse(properties)));
      }
      const listed = (JSON.parse(await (await service.request('GET', '/api/v2/contacts?limit=100')).text()) as { data: { id: string; properties: unknown }[] }).data.find((c) => c.id === id);
      expect(JSON.stringify(listed?.properties)).toBe(JSON.stringify(JSON.parse(properties)));
      // Nothing leaked into the process's objects.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it('a non-object properties is a 400 in the error envelope', async () => {
    for (const bad of ['[1]', '"text"', '7', 'null']) {
      const res = await post('/api/v2/contacts', `{"phone":"+12125554200","properties":${bad}}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/properties/);
    }
  });

  it("the contact's event carries them too, through the pool and to a webhook", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await service.request('POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['contact.completed'] } });
      expect(hook.status).toBe(201);
      const properties = '{"__proto__":{"k":1},"constructor":{"name":"Set"},"prototype":[{"__proto__":2}]}';
      const created = await post('/api/v2/contacts', `{"phone":"+12125554300","properties":${properties}}`);
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: string }).id;
      // The pool takes every queued contact of the file (the ones above too): one event each, and the ping.
      const { pooled } = await runContactPool(service.runtime.ports);
      await service.runtime.settleWorkflows();
      await receiver.waitFor(1 + pooled);
      type Delivered = { type: string; data: { contact: { id: string; status: string; properties: unknown } } };
      const contact = receiver.requests.map((r) => JSON.parse(r.body) as Delivered).find((e) => e.type === 'contact.completed' && e.data.contact.id === id)!.data.contact;
      expect(contact).toMatchObject({ id, status: 'completed' });
      expect(JSON.stringify(contact.properties)).toBe(JSON.stringify(JSON.parse(properties)));
    } finally {
      await receiver.close();
    }
  });
});
