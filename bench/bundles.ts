import { build, type Metafile } from 'esbuild';
import { BUNDLE_BUILD } from '../lib/bundle-options';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mapsUnder, trimSourceMap } from '../tools/trim-source-map.mjs';
import { mergeInitialChunks, staticClosureOf } from '../tools/merge-initial-chunks.mjs';
import { mergeLazyGroups } from '../tools/merge-lazy-groups.mjs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
 * One call of each SDK client a hot path may make, as the floor bundles hold them, and the modules
 * of lambdas/platform/aws/sdk/ through which the service loads the client on first use.
 */
const CLIENTS = {
  dynamodb: {
    pkg: '@aws-sdk/client-dynamodb',
    lazy: [],
    source: "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const dynamodb = () => DynamoDBDocumentClient.from(new DynamoDBClient({})).send(new GetCommand({ TableName: 't', Key: { pk: 'k' } }));\n",
  },
  s3: { pkg: '@aws-sdk/client-s3', lazy: ['s3-client.ts', 's3-get.ts', 's3-head.ts', 's3-put.ts'], source: "import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';\nexport const s3 = () => new S3Client({}).send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' }));\n" },
  sfn: { pkg: '@aws-sdk/client-sfn', lazy: ['sfn-start.ts'], source: "import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';\nexport const sfn = () => new SFNClient({}).send(new StartExecutionCommand({ stateMachineArn: 'a', name: 'n' }));\n" },
  sqs: { pkg: '@aws-sdk/client-sqs', lazy: ['sqs-send.ts', 'sqs-send-batch.ts'], source: "import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';\nexport const sqs = () => new SQSClient({}).send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'm' }));\n" },
  kms: { pkg: '@aws-sdk/client-kms', lazy: ['kms-decrypt.ts', 'kms-encrypt.ts'], source: "import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';\nexport const kms = () => new KMSClient({}).send(new DecryptCommand({ CiphertextBlob: new Uint8Array(1) }));\n" },
} as const;
type Client = keyof typeof CLIENTS;

/**
 * What a cold start of each function loads to serve its hot request: the entry, the chunks of the
 * service's own code that request loads through `import()` (`chunks`: the modules imported, by
 * path; lambdas/functions/http/console-api.ts loads the console's panels so, all but the uploads
 * panel its dashboard opens on, which is in its entry), and the SDK clients it
 * calls (`clients`). `request` says which request that is. Every function reads or writes the
 * table (API keys, state). What only some requests need (KMS Encrypt on endpoint registration, SQS
 * on a scheduled retry, Cognito, the messaging API, another console panel) or a container needs
 * once (a secret read at its first use: cursor key, provider key, signing key) is not hot: it
 * loads from its own chunk at its first use. A function's cold import below loads the hot chunks
 * too, and its KB count them, so that moving hot code out of the entry gains nothing here.
 */
interface Hot {
  request: string;
  clients: Client[];
  chunks?: string[];
}
const HOT: Record<string, Hot> = {
  // The dashboard's first calls: who is signed in (/me), then the uploads list (its panel, in the entry: lambdas/functions/http/console-api.ts). Neither calls S3.
  'lambdas/functions/http/console.ts': { request: 'GET /console/api/me, then GET /console/api/uploads', clients: ['dynamodb'] },
  'lambdas/functions/http/contacts.ts': { request: 'POST /api/v1/contacts', clients: ['dynamodb'] },
  'lambdas/functions/http/credits.ts': { request: 'GET /api/v1/credits', clients: ['dynamodb'] },
  'lambdas/functions/http/platform.ts': { request: 'the readiness probe (reads the file store)', clients: ['dynamodb', 's3'] },
  'lambdas/functions/http/spam.ts': { request: 'GET /api/v1/spam/numbers', clients: ['dynamodb'] },
  'lambdas/functions/http/uploads.ts': { request: 'POST /api/v1/uploads (original to S3, workflow start), download links', clients: ['dynamodb', 's3', 'sfn'] },
  'lambdas/functions/http/webhooks.ts': { request: 'GET /api/v1/webhooks', clients: ['dynamodb'] },
  'lambdas/functions/steps/classify-chunk.ts': { request: 'a chunk', clients: ['dynamodb', 's3'] },
  'lambdas/functions/steps/fail.ts': { request: 'a failed upload', clients: ['dynamodb'] },
  'lambdas/functions/steps/finalize.ts': { request: 'an upload', clients: ['dynamodb', 's3'] },
  'lambdas/functions/steps/notify-pool.ts': { request: 'a pool upload', clients: ['dynamodb'] },
  'lambdas/functions/steps/prepare.ts': { request: 'an upload', clients: ['dynamodb', 's3'] },
  'lambdas/functions/queues/spam-carrier-test.ts': { request: 'a test (the call screen\'s screenshot)', clients: ['dynamodb', 's3'] },
  'lambdas/functions/queues/webhook-delivery.ts': { request: 'a delivery (the endpoint\'s secret opened to sign)', clients: ['dynamodb', 'kms'] },
  'lambdas/functions/jobs/billing-period.ts': { request: 'a run', clients: ['dynamodb'] },
  'lambdas/functions/jobs/contact-pool.ts': { request: 'a run (a pool\'s file and its workflow)', clients: ['dynamodb', 's3', 'sfn'] },
  'lambdas/functions/jobs/recovery.ts': { request: 'a run', clients: ['dynamodb'] },
  'lambdas/functions/jobs/spam-daily-run.ts': { request: 'a run', clients: ['dynamodb', 'sqs'] },
  'lambdas/functions/jobs/webhook-sweeper.ts': { request: 'a run', clients: ['dynamodb', 'kms'] },
};

/**
 * How a cold import is counted. `cpu` (the figures' default, the target's): CPU time (user +
 * system) of a fresh `node` that imports the files in order, process start included, CPU_ROUNDS rounds
 * interleaved, each ratio the median of the rounds' own ratios. `instructions` (`BENCH_COLD_IMPORT=instructions`): the
 * instructions that same process executes, every thread, counted by valgrind's cachegrind (`I
 * refs`), once per subject: about 25 s an import, and within ±3% between runs whatever else the
 * machine runs, where CPU time moved by ±0.1–0.2 of a ratio at load averages of 5–15. Its figures
 * are named `cold_import_instructions_…`. Either way with the flag every deployed function runs
 * with (NODE_OPTIONS in lib/service-function.ts): Node then reads each file's source map as it
 * loads it.
 */
const COUNTER = process.env.BENCH_COLD_IMPORT === 'instructions' ? 'instructions' : 'cpu';
/**
 * Node flags for the counted process, beyond the deployed ones (`BENCH_COLD_IMPORT_NODE_FLAGS`,
 * space-separated). `--single-threaded` makes an instruction count steadier (the DynamoDB floor:
 * 384.4–385.5 M in three processes in a row, against 279.6–291.1 M without it at a load average of
 * 10; across two runs ±2%): without it, how much of V8's background work (compiling, marking) a
 * thread finishes before the process exits depends on the scheduling. For comparing two builds; the figures' default is
 * without it (docs/performance.md, "Cold imports, eighth step").
 */
const NODE_FLAGS = (process.env.BENCH_COLD_IMPORT_NODE_FLAGS ?? '').split(' ').filter(Boolean);

function importCost(files: string[], env: NodeJS.ProcessEnv): number {
  const imports = files.map((f) => `await import(${JSON.stringify(pathToFileURL(f).href)});`).join(' ');
  if (COUNTER === 'instructions') {
    const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, ...NODE_FLAGS, '--enable-source-maps', '--input-type=module', '-e', imports], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const refs = /I\s+refs:\s+([\d,]+)/.exec(r.stderr.toString());
    if (r.status !== 0 || !refs) throw new Error(`counting the import of ${files.join(', ')} failed (is valgrind installed?): ${r.stderr.toString().slice(-500)}`);
    return Number(refs[1]!.replace(/,/g, '')) / 1e6;
  }
  const r = spawnSync(process.execPath, [...NODE_FLAGS, '--enable-source-maps', '--input-type=module', '-e', `${imports} const u = process.cpuUsage(); console.log((u.user + u.system) / 1000)`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`importing ${files.join(', ')} failed: ${r.stderr.toString().slice(0, 500)}`);
  return Number(r.stdout.toString());
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Counted once: the same files (the minimal handler, a floor shared by several functions) give the same count. */
const counted = new Map<string, number>();

/**
 * Rounds of CPU-time cold imports (`BENCH_COLD_IMPORT_ROUNDS`, default 21). With 11, one function's
 * ratio moved by ±0.1 between runs of the same code (docs/performance.md, "Cold imports, tenth
 * step"), and the figure is the worst of 19 such medians, so it mostly named the function that drew
 * the worst rounds; 21 narrow each median by about a third.
 */
const CPU_ROUNDS = Number(process.env.BENCH_COLD_IMPORT_ROUNDS ?? 21);

/**
 * Cold imports in fresh processes, each subject's cost (COUNTER) in every round. In CPU time,
 * CPU_ROUNDS rounds, each round one process per subject, the first subject rotating from round to
 * round: on this shared machine wall time doubled between runs under load, CPU time moved by a few
 * ms, and a burst of load lands on the subjects of one round alike, so each ratio is taken within a
 * round (pairedRatio). In instructions, one round.
 */
function coldImports(subjects: string[][], env: NodeJS.ProcessEnv): number[][] {
  if (COUNTER === 'instructions') {
    return subjects.map((files) => {
      const key = files.join('\n');
      if (!counted.has(key)) counted.set(key, importCost(files, env));
      return [counted.get(key)!];
    });
  }
  const times: number[][] = subjects.map(() => []);
  for (let round = 0; round < CPU_ROUNDS; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const i = (round + k) % subjects.length;
      times[i]!.push(importCost(subjects[i]!, env));
    }
  }
  return times;
}

/** The median over rounds of each round's `a / b` (coldImports' rounds). */
const pairedRatio = (a: number[], b: number[]): number => median(a.map((x, round) => x / b[round]!));

interface Built {
  /** The entry module a cold start imports. */
  entry: string;
  /** KB of the entry, the hot request's own chunks and what they import statically: what a cold start loads, SDK chunks apart. */
  initialKb: number;
  /** initialKb and the hot SDK clients' chunks: everything a cold start serving the hot request loads. */
  requestKb: number;
  /** The hot request's own chunks (Hot.chunks), by file. */
  hotChunks: string[];
  /** KB of every file of the asset (entry and chunks, maps left out). */
  totalKb: number;
  /** The lazy chunks of each SDK client (by package) that are not in the initial load. */
  lazyClients: Map<string, string[]>;
  /** Every SDK package the bundle holds anywhere. */
  packages: Set<string>;
}

/** Output files reached from `file` by static imports (itself included). */
function staticClosure(outputs: Metafile['outputs'], file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const i of outputs[file]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) staticClosure(outputs, i.path, into);
  return into;
}

/**
 * Each function bundled as lib/service-function.ts bundles it (lib/bundle-options.ts: esbuild, ESM,
 * node22, minified, code-split, the entry's static imports merged into it, every source map cut to
 * the service's own code): the size of what a cold start serving its hot request loads (HOT: the
 * entry, that request's own chunks, and then its SDK clients' chunks) and of the whole asset; the
 * CPU time of that cold import against a bundle holding only those clients (its own SDK floor)
 * and against a minimal handler.
 */
export async function runBundlesBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  const env = { PATH: process.env.PATH, DEPLOYMENT: 'aws', AWS_REGION: 'us-east-1', TABLE_NAME: 't', FILES_BUCKET: 'b', POWERTOOLS_LOG_LEVEL: 'WARN', NODE_OPTIONS: '' };
  try {
    let n = 0;
    // An entry file, or a source resolved from the project (the SDK floors).
    const bundle = async (entry: string | { contents: string }, hot?: Hot): Promise<Built> => {
      const outdir = join(dir, String(n++));
      const stdinPath = join(ROOT, 'floor.ts');
      const result = await build({
        ...BUNDLE_BUILD,
        ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'ts' as const, sourcefile: stdinPath } }),
        outdir,
        metafile: true,
        logLevel: 'silent',
      });
      const outputs = result.metafile!.outputs;
      const js = Object.keys(outputs).filter((f) => f.endsWith('.mjs'));
      const entryOut = js.find((f) => f.endsWith('/index.mjs'))!;
      // What esbuild's cold start would import; merged into index.mjs below, as deployed.
      const initial = staticClosure(outputs, entryOut);
      // The hot request's own chunks: a module named there that is no chunk of its own is a stale table.
      const hotChunks = (hot?.chunks ?? []).map((module) => {
        const chunk = js.find((f) => (outputs[f]!.entryPoint ?? '').endsWith(module));
        if (!chunk) throw new Error(`${module} is no chunk of its own in the bundle: HOT in bench/bundles.ts is stale`);
        return chunk;
      });
      const lazyClients = new Map<string, string[]>();
      const packages = new Set<string>();
      for (const f of js) {
        const point = outputs[f]!.entryPoint ?? '';
        for (const { pkg, lazy } of Object.values(CLIENTS)) {
          if (Object.keys(outputs[f]!.inputs).some((input) => input.includes(`node_modules/${pkg}/`))) packages.add(pkg);
          if (!initial.has(f) && (lazy as readonly string[]).some((m) => point.endsWith(`lambdas/platform/aws/sdk/${m}`))) lazyClients.set(pkg, [...(lazyClients.get(pkg) ?? []), resolve(f)]);
        }
      }
      // As deployed (lib/service-function.ts): the entry's static imports merged into index.mjs, S3's chunks into one, every map cut to the service's own code.
      await mergeInitialChunks(outdir);
      // S3's chunks as one file, and chunks nothing names (an import() esbuild dropped) gone: a client's modules are what is left of them.
      const { mergedInto, removed } = await mergeLazyGroups(outdir);
      for (const [pkg, files] of lazyClients) lazyClients.set(pkg, [...new Set(files.filter((f) => !removed.includes(f)).map((f) => mergedInto.get(f) ?? f))]);
      for (const map of mapsUnder(outdir)) writeFileSync(map, trimSourceMap(readFileSync(map, 'utf8')));
      // Metafile paths are relative to the working folder; sizes from the files as they now are.
      const entryFile = resolve(entryOut);
      const hotFiles = hotChunks.filter((f) => !initial.has(f)).map((f) => resolve(f));
      const loaded = staticClosureOf(entryFile);
      for (const f of hotFiles) staticClosureOf(f, loaded);
      const withClients = new Set(loaded);
      for (const c of hot?.clients ?? []) for (const f of lazyClients.get(CLIENTS[c].pkg) ?? []) staticClosureOf(f, withClients);
      const kb = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + statSync(f).size, 0) / 1024;
      const everyModule = readdirSync(outdir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs')).map((f) => join(outdir, f));
      return { entry: entryFile, initialKb: kb(loaded), requestKb: kb(withClients), hotChunks: hotFiles, totalKb: kb(everyModule), lazyClients, packages };
    };

    const minimal = await bundle({ contents: 'export const handler = async () => ({ statusCode: 200 });\n' });
    const floors = new Map<string, Built>();
    const floorOf = async (clients: Client[]): Promise<Built> => {
      const key = [...clients].sort().join('+');
      if (!floors.has(key)) floors.set(key, await bundle({ contents: clients.map((c) => CLIENTS[c].source).join('') }));
      return floors.get(key)!;
    };

    const results: { entry: string; initialKb: number; requestKb: number; totalKb: number; vsFloor: number; vsMinimal: number; hot: string; request: string }[] = [];
    const minimalMs: number[] = [];
    const floorVsMinimal = new Map<string, number>();
    // BENCH_BUNDLES=console,uploads: only the functions whose entry's name is listed (a partial run, for trying a change).
    const only = process.env.BENCH_BUNDLES?.split(',').filter(Boolean);
    const all = entries().filter((e) => !only || only.some((name) => e.endsWith(`/${name}.ts`)));
    const missing = all.filter((e) => !HOT[e]);
    if (missing.length) throw new Error(`no hot request named for ${missing.join(', ')} (HOT in bench/bundles.ts)`);
    for (const entry of all) {
      const hot = HOT[entry]!;
      const built = await bundle(join(ROOT, entry), hot);
      // A function said to call a client it does not hold: the table is stale.
      const absent = hot.clients.filter((c) => !built.packages.has(CLIENTS[c].pkg));
      if (absent.length) throw new Error(`${entry} holds no ${absent.join(', ')}: HOT in bench/bundles.ts is stale`);
      const floor = await floorOf(hot.clients);
      const own = [built.entry, ...built.hotChunks, ...hot.clients.flatMap((c) => built.lazyClients.get(CLIENTS[c].pkg) ?? [])];
      const [minMs, floorMs, ownMs] = coldImports([[minimal.entry], [floor.entry], own], env) as [number[], number[], number[]];
      minimalMs.push(median(minMs));
      floorVsMinimal.set(hot.clients.join('+'), pairedRatio(floorMs, minMs));
      results.push({ entry, initialKb: built.initialKb, requestKb: built.requestKb, totalKb: built.totalKb, vsFloor: pairedRatio(ownMs, floorMs), vsMinimal: pairedRatio(ownMs, minMs), hot: hot.clients.join('+'), request: hot.request });
    }
    process.stderr.write(
      results
        .map((r) => `  ${r.entry}: ${r.initialKb.toFixed(0)} KB at a cold start serving ${r.request} (${r.requestKb.toFixed(0)} KB with its hot SDK chunks, ${r.totalKb.toFixed(0)} KB with every lazy chunk), cold import ×${r.vsFloor.toFixed(2)} of its SDK floor (${r.hot}), ×${r.vsMinimal.toFixed(2)} of a minimal handler`)
        .join('\n') + '\n',
    );
    const max = <K extends 'initialKb' | 'requestKb' | 'totalKb' | 'vsFloor' | 'vsMinimal'>(key: K) => results.reduce((a, b) => (b[key] > a[key] ? b : a));
    const floorsOut: Record<string, number> = {};
    for (const [key, built] of floors) floorsOut[`sdk_floor_${key.replace(/\+/g, '_')}_kb`] = Math.round(built.initialKb);
    for (const [hot, ratio] of floorVsMinimal) floorsOut[`sdk_floor_${[...hot.split('+')].sort().join('_')}_${COUNTER === 'instructions' ? 'cold_import_instructions' : 'cold_import'}_vs_minimal`] = Number(ratio.toFixed(2));
    const cold = COUNTER === 'instructions' ? 'cold_import_instructions' : 'cold_import';
    const coldImportFigures = {
      [`${cold}_vs_own_sdk_floor_max`]: Number(max('vsFloor').vsFloor.toFixed(2)),
      [`${cold}_vs_own_sdk_floor_max_entry`]: max('vsFloor').entry,
      [`${cold}_vs_own_sdk_floor_within_1_3`]: results.filter((r) => r.vsFloor <= 1.3).length,
      [COUNTER === 'instructions' ? 'cold_import_instructions_minimal_millions' : 'cold_import_minimal_ms']: Math.round(median(minimalMs)),
      [`${cold}_vs_minimal_max`]: Number(max('vsMinimal').vsMinimal.toFixed(2)),
      [`${cold}_vs_minimal_max_entry`]: max('vsMinimal').entry,
    };
    return {
      bundle_kb_initial_max: Math.round(max('initialKb').initialKb),
      bundle_kb_initial_max_entry: max('initialKb').entry,
      bundle_kb_cold_request_max: Math.round(max('requestKb').requestKb),
      bundle_kb_cold_request_max_entry: max('requestKb').entry,
      bundle_kb_total_max: Math.round(max('totalKb').totalKb),
      bundles_initial_within_400_kb: results.filter((r) => r.initialKb <= 400).length,
      bundles: results.length,
      ...coldImportFigures,
      ...floorsOut,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
