import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../lambdas/api/routes';
import { MultipartFields } from '../../../lambdas/uploads/request';

// Strict inputs (issue 32): a typo such as `validation_teir` must be a 400 naming it on every
// write, never a silently ignored field. Every request body the route table declares (JSON and
// form) is checked here, so a new route cannot forget it.
describe('every write body refuses unknown top-level fields', () => {
  const bodies = ROUTES.flatMap((route) => [
    ...(route.request?.body ? [[`${route.method} ${route.path} (json)`, route.request.body] as const] : []),
    ...Object.entries(route.request?.forms ?? {}).map(([type, schema]) => [`${route.method} ${route.path} (${type})`, schema] as const),
  ]);

  it('covers the writes the issue names', () => {
    const names = bodies.map(([name]) => name);
    for (const expected of ['POST /api/v1/contacts', 'POST /api/v2/contacts', 'POST /api/v1/uploads', 'POST /api/v1/webhooks', 'PATCH /api/v1/webhooks/{webhook_id}', 'POST /api/v1/spam/numbers', 'POST /api/v1/spam/numbers/{number_id}/verify', 'POST /api/v1/spam/numbers/{number_id}/verify/resend']) {
      expect(names.some((n) => n.startsWith(`${expected} `)), expected).toBe(true);
    }
  });

  it.each(bodies)('%s', (_name, schema) => {
    const result = schema.safeParse({ zz_typo: 1 });
    expect(result.success).toBe(false);
    const unknown = result.error!.issues.find((issue) => issue.code === 'unrecognized_keys');
    expect(unknown?.message).toBe('Unrecognized key: "zz_typo"');
  });

  it('the multipart fields the uploads function parses are strict too', () => {
    const result = MultipartFields.safeParse({ phone_column: 'phone', valdation_tier: 'max' });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Unrecognized key: "valdation_tier"']);
  });
});
