import { build } from 'esbuild';
import { BUNDLE_ALIASES } from '../lib/bundle-aliases';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every function the stack deploys (lib/): the API handlers, the workflow steps, the consumers, the jobs. */
function entries(): string[] {
  const api = readdirSync(join(ROOT, 'lambdas')).map((d) => `lambdas/${d}/handler.ts`).filter((p) => existsSync(join(ROOT, p)));
  const others = [
    'lambdas/uploads/pipeline/prepare.ts',
    'lambdas/uploads/pipeline/classify-chunk.ts',
    'lambdas/uploads/pipeline/finalize.ts',
    'lambdas/uploads/pipeline/fail.ts',
    'lambdas/contacts/pool-step.ts',
    'lambdas/credits/billing-period-job.ts',
    'lambdas/contacts/pool-job.ts',
    'lambdas/recovery/recovery-job.ts',
    'lambdas/spam/daily-run-handler.ts',
    'lambdas/spam/test-consumer.ts',
    'lambdas/webhooks/consumer.ts',
    'lambdas/webhooks/sweeper.ts',
  ];
  return [...api, ...others].filter((p) => existsSync(join(ROOT, p)));
}

/** Wall time of a fresh `node` that imports the file, median of 5 (process start included). */
function coldImportMs(file: string, env: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(file)})`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`importing ${file} failed: ${r.stderr.toString().slice(0, 500)}`);
  }
  return times.sort((a, b) => a - b)[2]!;
}

/**
 * Each function bundled as lib/service-function.ts bundles it (esbuild, ESM, node22, minified):
 * its size, and the cold import of the bundle in a fresh process against a minimal bundle's.
 */
export async function runBundlesBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  const env = { PATH: process.env.PATH, DEPLOYMENT: 'aws', AWS_REGION: 'us-east-1', TABLE_NAME: 't', FILES_BUCKET: 'b', POWERTOOLS_LOG_LEVEL: 'WARN', NODE_OPTIONS: '' };
  try {
    const minimalSrc = join(dir, 'minimal.ts');
    writeFileSync(minimalSrc, 'export const handler = async () => ({ statusCode: 200 });\n');
    const results: { entry: string; kb: number; ratio: number }[] = [];
    const bundle = async (entry: string, name: string) => {
      const outfile = join(dir, `${name}.mjs`);
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        minify: true,
        mainFields: ['module', 'main'],
        alias: BUNDLE_ALIASES,
        banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
        logLevel: 'silent',
      });
      return outfile;
    };
    const minimal = coldImportMs(await bundle(minimalSrc, 'minimal'), env);
    for (const entry of entries()) {
      const name = entry.replace(/[/.]/g, '_');
      const file = await bundle(join(ROOT, entry), name);
      results.push({ entry, kb: statSync(file).size / 1024, ratio: coldImportMs(file, env) / minimal });
    }
    const biggest = results.reduce((a, b) => (b.kb > a.kb ? b : a));
    const slowest = results.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    process.stderr.write(results.map((r) => `  ${r.entry}: ${r.kb.toFixed(0)} KB, cold import ×${r.ratio.toFixed(2)}`).join('\n') + '\n');
    return {
      bundle_kb_max: Math.round(biggest.kb),
      bundle_kb_max_entry: biggest.entry,
      cold_import_minimal_ms: Math.round(minimal),
      cold_import_vs_minimal_max: Number(slowest.ratio.toFixed(2)),
      cold_import_vs_minimal_max_entry: slowest.entry,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
