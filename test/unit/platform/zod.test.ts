import { describe, expect, it } from 'vitest';
import * as z from '../../../lambdas/platform/zod';

// lambdas/ uses zod/mini, whose messages are a bare "Invalid input" until a locale is set; the
// module that is lambdas/' one door to zod sets English, so errors read as classic zod's did. This
// file imports nothing else, so no other module can have set the locale first.
describe('lambdas/platform/zod', () => {
  it('gives the English messages error envelopes quote', () => {
    const schema = z.object({ phone: z.string().check(z.minLength(2)), limit: z.number().check(z.int(), z.lte(100)), tier: z.enum(['standard', 'max']) });
    const result = schema.safeParse({ phone: 'x', limit: 101, tier: 'gold' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'phone: Too small: expected string to have >=2 characters',
      'limit: Too big: expected number to be <=100',
      'tier: Invalid option: expected one of "standard"|"max"',
    ]);
    expect(z.string().safeParse(5).error!.issues[0]!.message).toBe('Invalid input: expected string, received number');
  });
});
