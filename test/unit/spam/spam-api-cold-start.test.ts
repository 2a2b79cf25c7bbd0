import { describe, expect, it } from 'vitest';
import { routeKey } from '../../../lambdas/platform/http/route-spec';
import { spamRoutes } from '../../../lambdas/spam/routes';
import type { SpamNumberPorts } from '../../../lambdas/spam/ports';
import { operations as enrollment } from '../../../lambdas/functions/http/spam-api/enrollment';

// The spam API's cold start (lambdas/functions/http/spam-api.ts) carries the reads and removal;
// registering and verifying a number load from a chunk of their own at the first such request
// (what its cold start leaves out: test/infra/cold-start-loads.test.ts).

describe('spam API cold start', () => {
  it('serves registration and verification from the enrollment chunk, each with its full route', () => {
    const served = enrollment({} as SpamNumberPorts);
    expect(served.map((op) => op.key).sort()).toEqual([spamRoutes.add, spamRoutes.verify, spamRoutes.resend].map(routeKey).sort());
    for (const op of served) expect([spamRoutes.add, spamRoutes.verify, spamRoutes.resend]).toContain(op.route);
  });
});
