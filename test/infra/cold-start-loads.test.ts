import { describe, expect, it } from 'vitest';
import { entryLoad } from '../support/entry-load';

// What a function's cold start does not load: modules its hot request does not use, kept in the
// bundle as chunks loaded at the first request that does (docs/performance.md, "Cold imports").
// Each function is bundled as deployed (lib/bundle-options.ts) and its entry's static closure read
// from esbuild's metafile.
const LAZY: Record<string, { why: string; modules: string[] }> = {
  'lambdas/functions/http/spam.ts': {
    why: 'registering and verifying a number (the list is the hot request; "Cold imports, thirteenth step")',
    modules: ['lambdas/spam/number-enrollment.ts', 'lambdas/spam/phone.ts', 'lambdas/classification/nanp-prefixes.json', 'lambdas/spam/verification-code.ts'],
  },
  'lambdas/functions/http/platform.ts': {
    why: 'every route of the API, which only the 404/405 of an unmatched request needs (the readiness probe is the hot request; "Cold imports, fifteenth step")',
    modules: ['lambdas/api/route-fallback.ts', 'lambdas/api/routes.ts', 'lambdas/uploads/routes.ts', 'lambdas/webhooks/routes.ts', 'lambdas/contacts/routes.ts'],
  },
};

describe("a function's cold start", () => {
  for (const [entry, { why, modules }] of Object.entries(LAZY)) {
    it(`${entry} leaves ${why} out of its entry's load, and keeps them in its bundle`, async () => {
      const { outputs, initial } = await entryLoad(entry);
      const holding = (files: Iterable<string>) => modules.filter((source) => [...files].some((f) => (outputs[f]!.inputs[source]?.bytesInOutput ?? 0) > 0));
      expect(holding(Object.keys(outputs))).toEqual(modules);
      expect(holding(initial)).toEqual([]);
    });
  }
});
