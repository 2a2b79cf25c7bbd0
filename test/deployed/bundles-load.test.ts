import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { assetCode, assetModules, deployedAssembly, SYNTH_WAIT_MS, type DeployedAssembly } from './assembly';
import { mapsUnder } from '../../tools/trim-source-map.mjs';
import { PROJECT_ROOT } from '../../lib/service-function';
import { NODE22 } from './node22';
import { decode } from '@jridgewell/sourcemap-codec';
import { tempDir } from '../support/temp-dirs';

const run = promisify(execFile);

/**
 * Every synthesized bundle is self-contained: copied alone into an empty folder (no node_modules
 * above it, no NODE_PATH), it loads on Node 22 and exports its handler. A bundle that leaves the
 * SDK or any dependency external fails here with "Cannot find package". Bundles are code-split
 * (lib/bundle-options.ts): each chunk a function loads on first use must be in its asset and load
 * there alone too.
 */
describe('synthesized bundles', () => {
  let assembly: DeployedAssembly;
  beforeAll(async () => {
    assembly = await deployedAssembly();
  }, SYNTH_WAIT_MS);

  it('are all found in the template (one per service function)', () => {
    expect(assembly.functions.length).toBeGreaterThanOrEqual(16);
  });

  it('take credentials from the environment only, where Lambda puts the role\'s: no SSO, STS or ini-file providers (BUNDLE_ALIASES, tools/bundle-lambda.mjs)', () => {
    // Operation names of the clients the SDK's default chain carries (@aws-sdk/nested-clients).
    const chainOnly = ['GetRoleCredentials', 'AssumeRoleWithWebIdentity'];
    const carrying = assembly.functions.filter((fn) => {
      const source = assetCode(fn);
      return chainOnly.some((name) => source.includes(name));
    });
    expect(carrying.map((fn) => fn.logicalId)).toEqual([]);
  });

  it("carry a source map of the service's own code only, which Node applies under the template's NODE_OPTIONS (tools/trim-source-map.mjs)", async () => {
    const failures: string[] = [];
    for (const fn of assembly.functions) {
      // Each module of the asset has its map (a chunk of SDK code only may keep no source at all).
      const unmapped = assetModules(fn).filter((file) => !existsSync(`${file}.map`));
      if (unmapped.length > 0) failures.push(`${fn.logicalId}: no map for ${unmapped.join(', ')}`);
      for (const mapFile of mapsUnder(fn.assetDir)) {
        const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; sourcesContent?: unknown; mappings: string };
        // Each source where it really is (relative to the map), not by how its path reads.
        const dependencies = map.sources.filter((source) => !resolve(dirname(mapFile), source).startsWith(join(PROJECT_ROOT, 'lambdas') + sep));
        if (dependencies.length > 0 || map.sourcesContent !== undefined) {
          failures.push(`${fn.logicalId} ${mapFile.slice(fn.assetDir.length)}: ${dependencies.length} dependency sources, sourcesContent ${map.sourcesContent === undefined ? 'absent' : 'present'}`);
        }
      }
      const entryMap = JSON.parse(readFileSync(join(fn.assetDir, `${fn.handler.split('.')[0]}.mjs.map`), 'utf8')) as { sources: string[] };
      if (!entryMap.sources.some((source) => /lambdas\/.+\.ts$/.test(source))) failures.push(`${fn.logicalId}: the entry's map names none of the service's sources`);
    }
    expect(failures).toEqual([]);

    // The first mapped position of the credits API, as Node itself resolves it when the bundle loads.
    const fn = assembly.functions.find((f) => f.logicalId.includes('CreditsFunction'))!;
    expect(fn.environment.NODE_OPTIONS).toBe('--enable-source-maps');
    const file = join(fn.assetDir, 'index.mjs');
    const [line, column, source] = firstMapped(readFileSync(`${file}.map`, 'utf8'));
    const script = `const m = await import('node:module'); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(m.findSourceMap(${JSON.stringify(file)})?.findEntry(${line}, ${column}) ?? null))`;
    const { stdout } = await run(NODE22, ['--input-type=module', '-e', script], { env: { PATH: '/usr/bin:/bin', AWS_REGION: 'us-east-1', NODE_OPTIONS: String(fn.environment.NODE_OPTIONS) } });
    const entry = JSON.parse(stdout) as { originalSource?: string } | null;
    // The map names sources relative to itself (../../…/lambdas/credits/….ts); Node answers with a URL.
    expect(entry?.originalSource).toContain(source.replace(/^(\.\.\/)+/, ''));
  });

  it('each load from an empty folder on Node 22 and export the handler the template names', async () => {
    const failures: string[] = [];
    await Promise.all(
      assembly.functions.map(async (fn) => {
        const dir = tempDir('bundle-alone-');
        try {
          cpSync(fn.assetDir, dir, { recursive: true });
          const [file, exported] = fn.handler.split('.') as [string, string];
          const url = pathToFileURL(join(dir, `${file}.mjs`)).href;
          const script = `import(${JSON.stringify(url)}).then((m) => { if (typeof m[${JSON.stringify(exported)}] !== 'function') { console.error('no export ${exported}'); process.exit(3); } })`;
          await run(NODE22, ['-e', script], { cwd: dir, env: { PATH: '/usr/bin:/bin', AWS_REGION: 'us-east-1' } });
        } catch (error) {
          failures.push(`${fn.logicalId}: ${String((error as { stderr?: string }).stderr ?? error).split('\n').find((l) => /Error|Cannot/.test(l)) ?? error}`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  it('carry every chunk their modules import, and each chunk loads from an empty folder on Node 22 with the template\'s environment', async () => {
    const failures: string[] = [];
    let chunks = 0;
    for (const fn of assembly.functions) {
      // Every .mjs of the asset, reachable or not: none may name a file the asset lacks.
      const everyModule = readdirSync(fn.assetDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.mjs')).map((name) => join(fn.assetDir, name));
      for (const file of everyModule) {
        // esbuild's specifiers between the files of one output: "./chunks/…", "../chunk-…", "./…".
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+\.mjs)"/g)) {
          if (!existsSync(resolve(dirname(file), specifier!))) failures.push(`${fn.logicalId}: ${file.slice(fn.assetDir.length)} imports ${specifier}, absent from the asset`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Each asset copied alone, then every chunk of it imported, as a first use would.
    await Promise.all(
      assembly.functions.map(async (fn) => {
        const modules = assetModules(fn).map((file) => file.slice(fn.assetDir.length + 1)).filter((name) => name.startsWith('chunks/'));
        chunks += modules.length;
        if (modules.length === 0) return;
        const dir = tempDir('bundle-chunks-');
        try {
          cpSync(fn.assetDir, dir, { recursive: true });
          const urls = modules.map((name) => pathToFileURL(join(dir, name)).href);
          const script = `for (const url of ${JSON.stringify(urls)}) await import(url);`;
          const env = { PATH: '/usr/bin:/bin', AWS_REGION: 'us-east-1', ...Object.fromEntries(Object.entries(fn.environment).filter(([, v]) => typeof v === 'string')) } as Record<string, string>;
          await run(NODE22, ['--input-type=module', '-e', script], { cwd: dir, env });
        } catch (error) {
          failures.push(`${fn.logicalId}: ${String((error as { stderr?: string }).stderr ?? error).split('\n').find((l) => /Error|Cannot/.test(l)) ?? error}`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
    );
    expect(failures).toEqual([]);
    // The split is real: the functions that hold S3 or KMS load it on first use.
    expect(chunks).toBeGreaterThan(assembly.functions.length);
  });
});

/** Generated line and column (0-based, as Node's findEntry takes them) and source of a map's first mapped segment. */
function firstMapped(mapText: string): [number, number, string] {
  const map = JSON.parse(mapText) as { sources: string[]; mappings: string };
  const lines = decode(map.mappings);
  for (let line = 0; line < lines.length; line++) {
    const segment = lines[line]!.find((s) => s.length > 1);
    if (segment) return [line, segment[0], map.sources[segment[1]!]!];
  }
  throw new Error('no mapped segment');
}
