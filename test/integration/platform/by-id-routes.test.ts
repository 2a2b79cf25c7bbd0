import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { ROUTES } from '../../../lambdas/api/routes';

const service = useTestService();

/** Bodies that pass validation, so the only thing wrong with the request is the id. */
const BODIES: Record<string, unknown> = {
  verifySpamNumber: { code: '123456' },
  resendSpamVerification: {},
  updateWebhookEndpoint: { description: 'x' },
};

const byIdRoutes = ROUTES.filter((route) => /\{[a-z_]+\}/.test(route.path) && route.operationId !== 'deleteUpload');

describe('one rule for ids on every by-id route (docs/architecture.md)', () => {
  it('covers every by-id route of the API', () => {
    // uploads get + 3 downloads, contacts v1/v2 get, spam 6, webhooks get/patch/delete/deliveries
    expect(byIdRoutes.length).toBeGreaterThanOrEqual(16);
  });

  it.each(byIdRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: a non-UUID id is a 404 with the same detail as an unknown id',
    async (_name, route) => {
      const at = (id: string) => route.path.replace(/\{[a-z_]+\}/g, id);
      const body = BODIES[route.operationId];
      const unknown = await service.request(route.method, at(randomUUID()), { body });
      const unknownBody = (await unknown.json()) as { detail: string };
      expect(unknown.status).toBe(404);
      for (const bad of ['not-a-uuid', '123', `${randomUUID()}x`, 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ']) {
        const res = await service.request(route.method, at(encodeURIComponent(bad)), { body });
        expect(res.status, bad).toBe(404);
        expect(await res.json()).toEqual(unknownBody);
      }
    },
  );

  it('DELETE /api/v1/uploads/{id} stays 410 for any id, as the spec says "always"', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await service.request('DELETE', `/api/v1/uploads/${id}`)).status).toBe(410);
    }
  });
});
