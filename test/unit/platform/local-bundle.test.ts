import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLocalBundle, LOCAL_BUNDLE_DIR, LOCAL_NODE_ARGS, localBundleFiles } from '../../../bin/local-bundle';

const ROOT = resolve(import.meta.dirname, '../../..');
const outfile = join(LOCAL_BUNDLE_DIR, `local-bundle-test-${process.pid}.mjs`);
const program = join(LOCAL_BUNDLE_DIR, `local-bundle-test-${process.pid}.program.mjs`);

afterAll(() => {
  for (const file of localBundleFiles(outfile)) rmSync(file, { force: true });
});

describe('npm start runs bin/local.ts bundled (bin/local-bundle.ts)', () => {
  it('package.json "start" builds the bundle and runs it with LOCAL_NODE_ARGS (what the bench measures)', () => {
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const bundle = relative(ROOT, join(LOCAL_BUNDLE_DIR, 'local.mjs'));
    expect(start).toMatch(/&& tsx bin\/local-bundle\.ts && /);
    expect(start.endsWith(` && node ${[...LOCAL_NODE_ARGS, bundle].join(' ')}`), start).toBe(true);
  });

  it('holds the project code only: packages stay imports of node_modules, the map sits beside it, no half-written file is left', async () => {
    const written = await buildLocalBundle('bin/local.ts', outfile);
    expect(written).toBe(outfile);
    const name = `local-bundle-test-${process.pid}.`;
    expect(readdirSync(LOCAL_BUNDLE_DIR).filter((f) => f.startsWith(name)).sort()).toEqual(localBundleFiles(outfile).map((f) => relative(LOCAL_BUNDLE_DIR, f)).sort());
    const code = readFileSync(program, 'utf8');
    // The runtime's own code is in it, the packages are not (imported from node_modules by name).
    expect(code).toContain('Phone validation service running at');
    expect(code).toMatch(/from "@aws-sdk\/client-s3"/);
    expect(code).not.toMatch(/node_modules\/@aws-sdk\/client-s3/);
    expect(code).toContain(`//# sourceMappingURL=${relative(LOCAL_BUNDLE_DIR, program)}.map`);
    const map = JSON.parse(readFileSync(`${program}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources).toContain('../bin/local.ts');
    // The start file: glibc's settings first (an exec), then the program; it imports no package.
    const start = readFileSync(outfile, 'utf8');
    expect(start).toContain('MALLOC_ARENA_MAX');
    expect(start).not.toMatch(/from "/);
    expect(start.trimEnd().endsWith(`await import(${JSON.stringify(`./${relative(LOCAL_BUNDLE_DIR, program)}`)});`)).toBe(true);
    // One folder below the root, as bin/ and local/ are: the runtime's relative paths resolve the same.
    expect(new URL('../statemachines/upload-processing.asl.json', pathToFileURL(program)).pathname).toBe(join(ROOT, 'statemachines/upload-processing.asl.json'));
    expect(readFileSync(join(LOCAL_BUNDLE_DIR, '..', 'package.json'), 'utf8')).toContain('"phone-validation-service"');
  });
});
