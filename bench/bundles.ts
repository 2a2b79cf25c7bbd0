import { build } from 'esbuild';
import { BUNDLE_ALIASES } from '../lib/bundle-aliases';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { trimSourceMap } from '../tools/trim-source-map.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every function the stack deploys (lib/): each module of lambdas/functions/ with a `handler`. */
function entries(): string[] {
  const tiers = ['http', 'steps', 'queues', 'jobs'];
  return tiers.flatMap((tier) =>
    readdirSync(join(ROOT, 'lambdas/functions', tier))
      .filter((f) => f.endsWith('.ts') && readFileSync(join(ROOT, 'lambdas/functions', tier, f), 'utf8').includes('export const handler'))
      .map((f) => `lambdas/functions/${tier}/${f}`),
  );
}

/**
 * CPU time (user + system) of a fresh `node` that imports the file, process start included, with
 * the flag every deployed function runs with (NODE_OPTIONS in lib/service-function.ts): Node then
 * reads the bundle's source map as it loads it.
 */
function importCpuMs(file: string, env: NodeJS.ProcessEnv): number {
  const r = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', `await import(${JSON.stringify(file)}); const u = process.cpuUsage(); console.log((u.user + u.system) / 1000)`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`importing ${file} failed: ${r.stderr.toString().slice(0, 500)}`);
  return Number(r.stdout.toString());
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * The cold import of `file` against the minimal bundle's: 7 pairs of fresh processes, alternating,
 * and the ratio of the two medians. CPU time, not wall time: on this shared machine wall time
 * doubled between runs under load, CPU time moved by a few ms; pairing keeps a burst of load from
 * landing on one side only (a single baseline measured first once put one function at x4.93 and
 * its twin at x4.01).
 */
function coldImportRatio(file: string, minimal: string, env: NodeJS.ProcessEnv): { ratio: number; minimalMs: number } {
  const own: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 7; i++) {
    base.push(importCpuMs(minimal, env));
    own.push(importCpuMs(file, env));
  }
  return { ratio: median(own) / median(base), minimalMs: median(base) };
}

/**
 * What the SDK alone weighs, bundled the same way: one command of one client and nothing else. No
 * function that reads S3, or serves an API (every request reads its key from DynamoDB), can be
 * smaller or load faster than these while the SDK is bundled (../shared/DESIGN.md).
 */
const SDK_FLOORS: Record<string, string> = {
  s3: "import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';\nexport const handler = async () => new S3Client({}).send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' }));\n",
  dynamodb: "import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';\nexport const handler = async () => new DynamoDBClient({}).send(new GetItemCommand({ TableName: 't', Key: {} }));\n",
};

/**
 * Each function bundled as lib/service-function.ts bundles it (esbuild, ESM, node22, minified, its
 * source map cut to the service's own code):
 * its size, and the CPU time of its cold import in a fresh process against a minimal bundle's; the
 * same for the SDK floors above; and, for each function over 400 KB, the same with the SDK taken
 * from the runtime instead of bundled (`sdk_from_runtime_*`).
 */
export async function runBundlesBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  // Bundles that import the SDK at run time must sit where Node finds the project's node_modules.
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const runtimeSdkDir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'bench-runtime-sdk-'));
  const env = { PATH: process.env.PATH, DEPLOYMENT: 'aws', AWS_REGION: 'us-east-1', TABLE_NAME: 't', FILES_BUCKET: 'b', POWERTOOLS_LOG_LEVEL: 'WARN', NODE_OPTIONS: '' };
  try {
    const minimalSrc = join(dir, 'minimal.ts');
    writeFileSync(minimalSrc, 'export const handler = async () => ({ statusCode: 200 });\n');
    const results: { entry: string; kb: number; ratio: number }[] = [];
    // An entry file, or a source resolved from the project (the SDK floors).
    const bundle = async (entry: string | { contents: string }, name: string, sdk: 'bundled' | 'runtime' = 'bundled') => {
      const outfile = join(sdk === 'bundled' ? dir : runtimeSdkDir, `${name}.mjs`);
      await build({
        ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'ts' as const } }),
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        minify: true,
        mainFields: ['module', 'main'],
        // CDK's own default for Node 18 and later: @aws-sdk/* left out, loaded from the runtime's copy.
        ...(sdk === 'bundled' ? { alias: BUNDLE_ALIASES } : { external: ['@aws-sdk/*'] }),
        sourcemap: true,
        sourcesContent: false,
        banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
        logLevel: 'silent',
      });
      // As deployed: the map cut to the service's own code (lib/service-function.ts).
      writeFileSync(`${outfile}.map`, trimSourceMap(readFileSync(`${outfile}.map`, 'utf8')));
      return outfile;
    };
    const minimal = await bundle(minimalSrc, 'minimal');
    const minimalMs: number[] = [];
    const cold = (file: string): number => {
      const { ratio, minimalMs: ms } = coldImportRatio(file, minimal, env);
      minimalMs.push(ms);
      return ratio;
    };
    const floors: Record<string, number> = {};
    for (const [name, source] of Object.entries(SDK_FLOORS)) {
      const file = await bundle({ contents: source }, `floor-${name}`);
      floors[`sdk_floor_${name}_kb`] = Math.round(statSync(file).size / 1024);
      floors[`sdk_floor_${name}_cold_import_vs_minimal`] = Number(cold(file).toFixed(2));
    }
    for (const entry of entries()) {
      const name = entry.replace(/[/.]/g, '_');
      const file = await bundle(join(ROOT, entry), name);
      results.push({ entry, kb: statSync(file).size / 1024, ratio: cold(file) });
    }
    // The other way to a small bundle: the SDK taken from the Lambda runtime (../shared/DESIGN.md
    // requires it bundled). The runtime's copy is these same packages' CommonJS builds, which is
    // what Node loads here from node_modules.
    const runtimeSdk: { entry: string; kb: number; ratio: number; vsBundled: number }[] = [];
    for (const r of results.filter((x) => x.kb > 400)) {
      const file = await bundle(join(ROOT, r.entry), r.entry.replace(/[/.]/g, '_'), 'runtime');
      const ratio = cold(file);
      runtimeSdk.push({ entry: r.entry, kb: statSync(file).size / 1024, ratio, vsBundled: ratio / r.ratio });
    }
    process.stderr.write(runtimeSdk.map((r) => `  ${r.entry}, SDK from the runtime: ${r.kb.toFixed(0)} KB, cold import ×${r.ratio.toFixed(2)} (×${r.vsBundled.toFixed(2)} of bundled)`).join('\n') + '\n');
    const biggest = results.reduce((a, b) => (b.kb > a.kb ? b : a));
    const slowest = results.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    process.stderr.write(results.map((r) => `  ${r.entry}: ${r.kb.toFixed(0)} KB, cold import ×${r.ratio.toFixed(2)}`).join('\n') + '\n');
    return {
      bundle_kb_max: Math.round(biggest.kb),
      bundle_kb_max_entry: biggest.entry,
      cold_import_minimal_ms: Math.round(median(minimalMs)),
      cold_import_vs_minimal_max: Number(slowest.ratio.toFixed(2)),
      cold_import_vs_minimal_max_entry: slowest.entry,
      bundles_within_400_kb: results.filter((r) => r.kb <= 400).length,
      bundles: results.length,
      ...floors,
      sdk_from_runtime_functions: runtimeSdk.length,
      ...(runtimeSdk.length > 0 && {
        sdk_from_runtime_bundle_kb_max: Math.round(Math.max(...runtimeSdk.map((r) => r.kb))),
        sdk_from_runtime_cold_import_vs_minimal_max: Number(Math.max(...runtimeSdk.map((r) => r.ratio)).toFixed(2)),
        sdk_from_runtime_cold_import_vs_bundled_min: Number(Math.min(...runtimeSdk.map((r) => r.vsBundled)).toFixed(2)),
      }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtimeSdkDir, { recursive: true, force: true });
  }
}
