import { mkdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const bundles = new Map<string, Promise<string>>();

/**
 * One of the project's programs (`bin/local.ts`, `bin/admin.ts`, a test's child script) bundled
 * once per test process, its dependencies left in node_modules, for the tests that start it as a
 * child process: a child then starts without tsx's loader (about half a second of CPU less each,
 * and the suite starts about 40). The bundle sits one folder below the project root, as bin/ and
 * local/ do, so the paths the runtime builds from its own location (statemachines/, web/dist/)
 * resolve as they do there. start-banner.test.ts still starts both entries through tsx, as
 * `npm start` and `npm run admin` do.
 */
export function bundledEntry(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = (async () => {
      const dir = join(ROOT, '.test-cache');
      mkdirSync(dir, { recursive: true });
      const outfile = join(dir, `${basename(entry, '.ts')}-${process.pid}.mjs`);
      await build({ entryPoints: [join(ROOT, entry)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node22', packages: 'external', logLevel: 'warning' });
      process.once('exit', () => rmSync(outfile, { force: true }));
      return outfile;
    })();
    bundles.set(entry, bundle);
  }
  return bundle;
}
