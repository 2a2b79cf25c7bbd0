import Papa from 'papaparse';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime } from '../local/runtime';
import { csvParseCount } from '../lambdas/uploads/csv';
import { normalizationCount } from '../lambdas/classification/normalize';
import { multiColumnCsv, singleColumnCsv } from './csv-files';
import { runChild } from './child';
import { addCredits } from '../lambdas/admin/admin';
import { bundleChild } from './bundle-child';
import { PARSERS, cpuMs, spread } from './parsers';
import { createFunctionVsParser } from './api-create';
import { startMultipartClient, type MultipartClient } from './multipart-client';
import { bytesWritten, threadCpu, threadCpuSince, type ThreadCpu } from './thread-cpu';

const ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 250_000);
const MULTI_ROWS = Number(process.env.BENCH_UPLOAD_MULTI_ROWS ?? 100_000);

const PARSER_ROUNDS = 5;

/**
 * Each parser cold (its first run in this process), then warm in PARSER_ROUNDS interleaved rounds
 * (each round every parser once, the round's first parser rotating), in CPU time as the figure is:
 * the yardstick is the parser with the lowest median warm time, as one warm parse each let two
 * parsers within 10% of each other take turns being "fastest".
 */
function parserTimes(csv: string): { fastest: string; warmMs: number; coldMs: number; warmMsByParser: Record<string, number> } {
  const names = Object.keys(PARSERS);
  const coldMs: Record<string, number> = {};
  const warm: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const timed = (name: string) => {
    const t = process.cpuUsage();
    PARSERS[name]!(csv);
    const used = process.cpuUsage(t);
    return (used.user + used.system) / 1000;
  };
  for (const name of names) coldMs[name] = timed(name);
  for (let r = 0; r < PARSER_ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      warm[name]!.push(timed(name));
    }
  }
  const warmMsByParser = Object.fromEntries(names.map((name) => [name, spread(warm[name]!).median]));
  const fastest = names.reduce((a, b) => (warmMsByParser[b]! < warmMsByParser[a]! ? b : a));
  return { fastest, warmMs: warmMsByParser[fastest]!, coldMs: coldMs[fastest]!, warmMsByParser };
}

const PAIRED_ROUNDS = Number(process.env.BENCH_CREATE_ROUNDS ?? 5);

/**
 * create over the local API (in this process: the server's work, the handler's and the embedded
 * stores'; the client that sends the file is a process of its own, multipart-client.ts) against the
 * fastest parser on the same file, paired and interleaved as bench/paired.ts pairs its functions:
 * each round times one parse and one create in CPU time, in alternating order, and is a ratio of
 * its own; the median of the rounds is the figure, the lowest and highest its spread. Beside it,
 * the median of each order's rounds (byOrder): a parse right after a create costs more than one
 * after a parse (docs/performance.md, "Create's CPU, sixth step"), so the two orders differ, and
 * the figure lands in whichever holds the middle round. `parts`: the medians of create's CPU time
 * by kind of thread (bench/thread-cpu.ts), of the bytes the process wrote and of its page faults per create, and the
 * medians of each side's CPU time.
 */
async function pairedCreateVsParser(parse: (csv: string) => unknown, createOnce: () => Promise<unknown>, csv: string): Promise<{ median: number; min: number; max: number; byOrder: ByOrder; parts: CreateParts }> {
  const ratios: number[] = [];
  const rounds: { parseMs: number; createMs: number; threads: ThreadCpu | null; written: number | null; faults: number }[] = [];
  const faults = () => process.resourceUsage().minorPageFault;
  const createMeasured = async () => {
    const [threads, written, faulted] = [threadCpu(), bytesWritten(), faults()];
    const ms = await cpuMs(createOnce);
    const [threadsAfter, writtenAfter, faultedAfter] = [threadCpu(), bytesWritten(), faults()];
    return { ms, threads: threads && threadsAfter ? threadCpuSince(threads, threadsAfter) : null, written: written !== null && writtenAfter !== null ? writtenAfter - written : null, faults: faultedAfter - faulted };
  };
  for (let r = 0; r < PAIRED_ROUNDS; r++) {
    let parserMs: number;
    let created: Awaited<ReturnType<typeof createMeasured>>;
    if (r % 2 === 0) {
      parserMs = await cpuMs(() => parse(csv));
      created = await createMeasured();
    } else {
      created = await createMeasured();
      parserMs = await cpuMs(() => parse(csv));
    }
    ratios.push(created.ms / parserMs);
    rounds.push({ parseMs: parserMs, createMs: created.ms, threads: created.threads, written: created.written, faults: created.faults });
  }
  const median = (xs: (number | null)[]) => (xs.every((x) => x !== null) ? spread(xs as number[]).median : NaN);
  const parts: CreateParts = {
    parseMs: median(rounds.map((r) => r.parseMs)),
    createMs: median(rounds.map((r) => r.createMs)),
    mainThreadMs: median(rounds.map((r) => r.threads?.main ?? null)),
    v8HelpersMs: median(rounds.map((r) => r.threads?.v8Helpers ?? null)),
    libuvMs: median(rounds.map((r) => r.threads?.libuv ?? null)),
    writtenMb: median(rounds.map((r) => (r.written === null ? null : r.written / 1e6))),
    pageFaults: median(rounds.map((r) => r.faults)),
  };
  return { ...spread(ratios), byOrder: byOrder(ratios), parts };
}

/** Medians over the paired rounds: each side's CPU time, create's by kind of thread, and what the process wrote per create. */
interface CreateParts {
  parseMs: number;
  createMs: number;
  mainThreadMs: number;
  v8HelpersMs: number;
  libuvMs: number;
  writtenMb: number;
  /** Minor page faults of the process per create: first touches of memory (about 12 µs each on this machine). */
  pageFaults: number;
}

/** Rounds alternate their order, parse first in the even ones: each order's median ratio. */
interface ByOrder {
  parseFirst: number;
  createFirst: number;
}

function byOrder(ratios: number[]): ByOrder {
  const median = (rounds: number[]) => (rounds.length ? spread(rounds).median : NaN);
  return { parseFirst: median(ratios.filter((_, r) => r % 2 === 0)), createFirst: median(ratios.filter((_, r) => r % 2 === 1)) };
}

interface Created {
  id: string;
  valid_number_count: number;
  createMs: number;
  csvParses: number;
  normalizations: number;
  cells: number;
}

async function create(runtime: Runtime, client: MultipartClient, csvPath: string, fields: Record<string, string>): Promise<Created> {
  const [parses, normalizations] = [csvParseCount(), normalizationCount()];
  const t = performance.now();
  const res = await client.post(`${runtime.url}/api/v1/uploads`, runtime.demo!.apiKey!, csvPath, fields);
  const createMs = performance.now() - t;
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${res.body}`);
  const upload = JSON.parse(res.body) as { id: string; valid_number_count: number };
  return { ...upload, createMs, csvParses: csvParseCount() - parses, normalizations: normalizationCount() - normalizations, cells: 0 };
}

export interface Processed {
  ms: number;
  status: string;
  maxRssKb: number;
  rssBeforeKb: number;
  /** Each step's own peak (prepare, the busiest classify container, finalize). */
  stepPeakKb: Record<string, number>;
  csvParses: number;
  normalizations: number;
}

interface StepOutput<T> {
  answer: T;
  ms: number;
  maxRssKb: number;
  rssBeforeKb: number;
  csvParses: number;
  normalizations: number;
}

/**
 * The workflow's steps as the state machine runs them, each in its own process as each is its own
 * function: Prepare; ClassifyChunk in 4 containers at once (the Map's concurrency), each taking
 * its chunks one after another; Finalize. Peak memory is the largest any one process reached.
 */
export async function processUpload(child: string, id: string, runtime: Runtime): Promise<Processed> {
  // Each step's process reaches the runtime's stores as a Lambda reaches its own (the runtime's environment).
  const env = { ...process.env, ...runtime.environment };
  const t = performance.now();
  const prepared = await runChild<StepOutput<{ chunks: number[] }>>(child, ['prepare', id], env);
  const chunks = prepared.answer.chunks;
  const containers = [0, 1, 2, 3].map((k) => chunks.filter((_, i) => i % 4 === k)).filter((c) => c.length);
  const classified = await Promise.all(containers.map((c) => runChild<StepOutput<unknown>>(child, ['classify', id, ...c.map(String)], env)));
  const finalized = await runChild<StepOutput<{ status: string }>>(child, ['finalize', id, ...chunks.map(String)], env);
  const ms = performance.now() - t;
  const all = [prepared, ...classified, finalized];
  return {
    ms,
    status: finalized.answer.status,
    maxRssKb: Math.max(...all.map((s) => s.maxRssKb)),
    rssBeforeKb: Math.max(...all.map((s) => s.rssBeforeKb)),
    stepPeakKb: { prepare: prepared.maxRssKb, classify: Math.max(...classified.map((s) => s.maxRssKb)), finalize: finalized.maxRssKb },
    csvParses: all.reduce((n, s) => n + s.csvParses, 0),
    normalizations: all.reduce((n, s) => n + s.normalizations, 0),
  };
}

/** Phone cells holding something (what a normalizer must read once each). */
function phoneCells(csv: string, columns: number[]): number {
  let n = 0;
  for (const row of (Papa.parse<string[]>(csv).data).slice(1)) for (const c of columns) if ((row[c] ?? '').trim()) n++;
  return n;
}

/**
 * Uploads of 250,000 valid distinct numbers with name columns (and a multi-column variant): the
 * create call over the local API against the fastest of three CSV parsers on the same file; then
 * the workflow's steps each in processes of their own running the bundled code (as Lambdas run
 * them), whose own peak memory is measured; CSV parses and normalizations counted by instrumentation across create and
 * processing; then the first filtered download.
 */
export async function runUploadsBench(): Promise<Record<string, number | string>> {
  const csv = singleColumnCsv(ROWS);
  const multi = multiColumnCsv(MULTI_ROWS);
  const parsers = parserTimes(csv);

  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  // A 250,000-row multipart CSV is over AWS's limits (staging in AWS): raised on purpose for the benchmark.
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, maxPayloadBytes: 150 * 1024 * 1024, seedDemo: true, ports: { workflow: async () => {} } });
  // The workflow runs in the child below, not in this process (the runtime's workflow port does nothing).
  const auth = { authorization: `Bearer ${runtime.demo!.apiKey}` };
  const files = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
  const [csvPath, multiPath] = [join(files, 'single.csv'), join(files, 'multi.csv')];
  writeFileSync(csvPath, csv);
  writeFileSync(multiPath, multi);
  const client = await startMultipartClient();
  try {
    const fields = { phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' };
    const single = await create(runtime, client, csvPath, fields);
    single.cells = phoneCells(csv, [3]);
    const child = await bundleChild('./pipeline-child.ts');
    const processed = await processUpload(child, single.id, runtime);
    if (processed.status !== 'completed') throw new Error(`upload ended ${processed.status}`);

    const multiCreated = await create(runtime, client, multiPath, { phone_columns: 'mobile,home,work', full_name_column: 'full_name' });
    multiCreated.cells = phoneCells(multi, [2, 3, 4]);
    const multiProcessed = await processUpload(child, multiCreated.id, runtime);
    if (multiProcessed.status !== 'completed') throw new Error(`multi-column upload ended ${multiProcessed.status}`);

    const download = async (id: string) => {
      const t = performance.now();
      const res = await fetch(`${runtime.url}/api/v1/uploads/${id}/download/processed-filtered`, { headers: auth });
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`download answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return ms;
    };
    const firstFilteredMs = await download(single.id);
    const laterFilteredMs = await download(single.id);
    const t = performance.now();
    const sorted = await fetch(`${runtime.url}/api/v1/uploads/${single.id}/download/processed?sort=best_status`, { headers: auth });
    const firstSortedMs = performance.now() - t;
    if (sorted.status !== 200) throw new Error(`sorted download answered ${sorted.status}`);
    await sorted.arrayBuffer();

    // Each paired create is an upload of its own (not processed: the workflow port does nothing).
    await addCredits(runtime.demo!.organizationId, PAIRED_ROUNDS * ROWS);
    const paired = await pairedCreateVsParser(PARSERS[parsers.fastest]!, () => create(runtime, client, csvPath, fields), csv);
    // The same, the function alone: its own process, staged file, stores not counted.
    await addCredits(runtime.demo!.organizationId, (PAIRED_ROUNDS + 1) * ROWS);
    const dir = mkdtempSync(join(tmpdir(), 'bench-create-'));
    const functionRatios = await createFunctionVsParser(runtime, runtime.demo!.apiKey!, csv, parsers.fastest, PAIRED_ROUNDS, dir).finally(() => rmSync(dir, { recursive: true, force: true }));
    const functionOnly = { ...spread(functionRatios), byOrder: byOrder(functionRatios) };

    const perUpload = (c: Created, p: Processed) => c.csvParses + p.csvParses;
    return {
      upload_rows: ROWS,
      upload_valid_numbers: single.valid_number_count,
      upload_bytes: Buffer.byteLength(csv),
      fastest_parser: parsers.fastest,
      fastest_parser_warm_ms: Math.round(parsers.warmMs),
      fastest_parser_cold_ms: Math.round(parsers.coldMs),
      ...Object.fromEntries(Object.entries(parsers.warmMsByParser).map(([name, ms]) => [`parser_warm_ms_${name}`, Math.round(ms)])),
      create_250k_ms: Math.round(single.createMs),
      create_vs_fastest_parser: Number(paired.median.toFixed(2)),
      create_vs_fastest_parser_min: Number(paired.min.toFixed(2)),
      create_vs_fastest_parser_max: Number(paired.max.toFixed(2)),
      create_vs_fastest_parser_parse_first: Number(paired.byOrder.parseFirst.toFixed(2)),
      create_vs_fastest_parser_create_first: Number(paired.byOrder.createFirst.toFixed(2)),
      // What the figure divides, and where create's CPU went (medians over the same rounds).
      create_paired_parse_cpu_ms: Math.round(paired.parts.parseMs),
      create_paired_create_cpu_ms: Math.round(paired.parts.createMs),
      create_paired_cpu_ms_main_thread: Math.round(paired.parts.mainThreadMs),
      create_paired_cpu_ms_v8_helper_threads: Math.round(paired.parts.v8HelpersMs),
      create_paired_cpu_ms_libuv_threads: Math.round(paired.parts.libuvMs),
      create_paired_written_mb: Number(paired.parts.writtenMb.toFixed(1)),
      create_paired_page_faults: Math.round(paired.parts.pageFaults),
      create_function_vs_fastest_parser: Number(functionOnly.median.toFixed(2)),
      create_function_vs_fastest_parser_min: Number(functionOnly.min.toFixed(2)),
      create_function_vs_fastest_parser_max: Number(functionOnly.max.toFixed(2)),
      create_function_vs_fastest_parser_parse_first: Number(functionOnly.byOrder.parseFirst.toFixed(2)),
      create_function_vs_fastest_parser_create_first: Number(functionOnly.byOrder.createFirst.toFixed(2)),
      process_250k_ms: Math.round(processed.ms),
      process_us_per_number: Number(((processed.ms * 1000) / single.valid_number_count).toFixed(1)),
      process_peak_rss_mb: Math.round(processed.maxRssKb / 1024),
      process_idle_rss_mb: Math.round(processed.rssBeforeKb / 1024),
      process_peak_kb_per_row_250k: Number((processed.maxRssKb / ROWS).toFixed(2)),
      process_peak_rss_mb_prepare: Math.round(processed.stepPeakKb.prepare! / 1024),
      process_peak_rss_mb_classify: Math.round(processed.stepPeakKb.classify! / 1024),
      process_peak_rss_mb_finalize: Math.round(processed.stepPeakKb.finalize! / 1024),
      csv_parses_per_upload: Math.max(perUpload(single, processed), perUpload(multiCreated, multiProcessed)),
      normalizations_per_number: Number(
        Math.max((single.normalizations + processed.normalizations) / single.cells, (multiCreated.normalizations + multiProcessed.normalizations) / multiCreated.cells).toFixed(2),
      ),
      multi_rows: MULTI_ROWS,
      multi_valid_numbers: multiCreated.valid_number_count,
      multi_create_ms: Math.round(multiCreated.createMs),
      multi_process_ms: Math.round(multiProcessed.ms),
      multi_process_peak_rss_mb: Math.round(multiProcessed.maxRssKb / 1024),
      first_filtered_download_ms: Math.round(firstFilteredMs),
      later_filtered_download_ms: Math.round(laterFilteredMs),
      first_sorted_download_ms: Math.round(firstSortedMs),
    };
  } finally {
    client.close();
    rmSync(files, { recursive: true, force: true });
    await runtime.stop();
  }
}
