import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { BUNDLE_BUILD } from '../../../lib/bundle-options';
import { routeKey } from '../../../lambdas/platform/http/route-spec';
import { spamRoutes } from '../../../lambdas/spam/routes';
import type { SpamNumberPorts } from '../../../lambdas/spam/ports';
import { operations as enrollment } from '../../../lambdas/functions/http/spam-api/enrollment';
import { tempDir } from '../../support/temp-dirs';

// The spam API's cold start (lambdas/functions/http/spam-api.ts) carries the reads and removal;
// registering and verifying a number load from a chunk of their own at the first such request.

describe('spam API cold start', () => {
  it('serves registration and verification from the enrollment chunk, each with its full route', () => {
    const served = enrollment({} as SpamNumberPorts);
    expect(served.map((op) => op.key).sort()).toEqual([spamRoutes.add, spamRoutes.verify, spamRoutes.resend].map(routeKey).sort());
    for (const op of served) expect([spamRoutes.add, spamRoutes.verify, spamRoutes.resend]).toContain(op.route);
  });

  it("leaves enrollment, the phone number reader and the code sender out of the entry's load, and keeps them in the bundle", async () => {
    const { metafile } = await build({ ...BUNDLE_BUILD, entryPoints: ['lambdas/functions/http/spam.ts'], outdir: tempDir('spam-cold-start-'), write: false, metafile: true, logLevel: 'silent' });
    const outputs = metafile.outputs;
    const closure = (file: string, into = new Set<string>()): Set<string> => {
      if (into.has(file)) return into;
      into.add(file);
      for (const i of outputs[file]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) closure(i.path, into);
      return into;
    };
    const LAZY = ['lambdas/spam/number-enrollment.ts', 'lambdas/spam/phone.ts', 'lambdas/classification/nanp-prefixes.json', 'lambdas/spam/verification-code.ts'];
    const holding = (files: Iterable<string>) => LAZY.filter((source) => [...files].some((f) => (outputs[f]!.inputs[source]?.bytesInOutput ?? 0) > 0));
    const initial = closure(Object.keys(outputs).find((f) => f.endsWith('/index.mjs'))!);
    expect(holding(Object.keys(outputs))).toEqual(LAZY);
    expect(holding(initial)).toEqual([]);
  }, 60_000);
});
