import { startRuntime, type Runtime } from '../local/runtime';
import { TIERS } from '../lambdas/classification/vocabulary';
import { singleColumnCsv } from './csv-files';
import { bundleChild } from './bundle-child';
import { runChild } from './child';

const ROWS = Number(process.env.BENCH_SLICE_ROWS ?? 250_000);

/**
 * Filter + sort combinations none of which finalize writes ahead (those are the deprecated
 * "reachable" tiers 1-4 in file order and the whole file by best status): each first request
 * must produce its own slice.
 */
const COMBOS: { statuses?: number[]; sort?: 'best_status'; include_identity?: true; neutralize_formulas?: true }[] = [
  { statuses: [2] },
  { statuses: [1, 3, 5], sort: 'best_status' },
  { statuses: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
  { statuses: [6, 8, 9], sort: 'best_status' },
  { statuses: [4, 7], sort: 'best_status', include_identity: true },
  { statuses: [1, 2], neutralize_formulas: true },
  { statuses: [9, 2, 2, 5], sort: 'best_status', neutralize_formulas: true, include_identity: true },
  { sort: 'best_status', include_identity: true },
];

interface Line {
  id: string;
  status: string;
  text: string;
}

const lines = (csv: string): string[] => csv.replace(/\r\n$/, '').split('\r\n');
const lastField = (line: string): [string, string] => {
  const at = line.lastIndexOf(',');
  return [line.slice(0, at), line.slice(at + 1)];
};

/** The bench file quotes no line break and no status holds a comma: a row is a line, its status the last field. */
function referenceRows(processed: string): { header: string; rows: Line[] } {
  const [header, ...rest] = lines(processed);
  return { header: header!, rows: rest.map((text) => ({ id: text.slice(0, text.indexOf(',')), status: lastField(text)[1], text })) };
}

/** Filter and stable sort of the full processed file, done here from its text alone. */
function expected(rows: Line[], combo: (typeof COMBOS)[number]): Line[] {
  const wanted = combo.statuses ? new Set(combo.statuses.map((s) => TIERS[s - 1]!)) : null;
  const kept = wanted ? rows.filter((r) => wanted.has(r.status)) : [...rows];
  if (combo.sort) kept.sort((a, b) => TIERS.indexOf(a.status) - TIERS.indexOf(b.status));
  return kept;
}

/** Whether the slice holds the expected rows in the expected order, each as the full file has it (less what the options change). */
function sliceMatches(slice: string, reference: { header: string; rows: Line[] }, combo: (typeof COMBOS)[number]): boolean {
  const want = expected(reference.rows, combo);
  let [header, ...got] = lines(slice);
  if (combo.include_identity) {
    if (lastField(header!)[1] !== 'Service_Identity') return false;
    header = lastField(header!)[0];
    got = got.map((l) => lastField(l)[0]);
  }
  if (header !== reference.header || got.length !== want.length) return false;
  return got.every((line, i) => {
    const w = want[i]!;
    // neutralize_formulas rewrites customer cells (phones written +1…): the row and its status must still match.
    if (combo.neutralize_formulas) return line.slice(0, line.indexOf(',')) === w.id && lastField(line)[1] === w.status;
    return line === w.text;
  });
}

const query = (combo: (typeof COMBOS)[number]): string =>
  new URLSearchParams({
    ...(combo.statuses ? { statuses: combo.statuses.map((s) => TIERS[s - 1]!).join(',') } : {}),
    ...(combo.sort ? { sort: combo.sort } : {}),
    ...(combo.include_identity ? { include_identity: 'true' } : {}),
    ...(combo.neutralize_formulas ? { neutralize_formulas: 'true' } : {}),
  }).toString();

async function create(runtime: Runtime, csv: string): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' })) form.append(k, v);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  const res = await fetch(`${runtime.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${runtime.demo!.apiKey}` } });
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** The workflow's steps, each in a process of its own running the bundled code (as in uploads.ts). */
async function processUpload(id: string, runtime: Runtime): Promise<void> {
  const child = await bundleChild('./pipeline-child.ts');
  const env = { ...process.env, ...runtime.environment };
  const { answer } = await runChild<{ answer: { chunks: number[] } }>(child, ['prepare', id], env);
  const containers = [0, 1, 2, 3].map((k) => answer.chunks.filter((_, i) => i % 4 === k)).filter((c) => c.length);
  await Promise.all(containers.map((c) => runChild(child, ['classify', id, ...c.map(String)], env)));
  const done = await runChild<{ answer: { status: string } }>(child, ['finalize', id, ...answer.chunks.map(String)], env);
  if (done.answer.status !== 'completed') throw new Error(`upload ended ${done.answer.status}`);
}

/**
 * A 250,000-row identity upload, processed; then, for each filter + sort combination finalize did
 * not write ahead, the first request for its link (the slice is built before the link answers)
 * timed, and the slice it links compared with a filter + stable sort of the full processed file.
 */
export async function runSlicesBench(): Promise<Record<string, number | string>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, maxPayloadBytes: 150 * 1024 * 1024, seedDemo: true, ports: { workflow: async () => {} } });
  const auth = { authorization: `Bearer ${runtime.demo!.apiKey}` };
  const linkOf = async (id: string, q: string): Promise<{ url: string; ms: number }> => {
    const t = performance.now();
    const res = await fetch(`${runtime.url}/api/v1/uploads/${id}/download/processed${q ? `?${q}` : ''}`, { headers: auth });
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`download answered ${res.status}: ${await res.text()}`);
    return { url: ((await res.json()) as { url: string }).url, ms };
  };
  const text = async (url: string): Promise<string> => (await (await fetch(url)).text());
  try {
    const id = await create(runtime, singleColumnCsv(ROWS));
    await processUpload(id, runtime);
    // Every request first, then the checks: the reference and the slices' text would otherwise
    // share this process's heap (and its collector's pauses) with the service answering them.
    const firstMs: number[] = [];
    const laterMs: number[] = [];
    const urls: string[] = [];
    for (const combo of COMBOS) {
      const first = await linkOf(id, query(combo));
      firstMs.push(first.ms);
      urls.push(first.url);
      laterMs.push((await linkOf(id, query(combo))).ms);
    }
    const reference = referenceRows(await text((await linkOf(id, '')).url));
    let wrong = 0;
    for (const [i, combo] of COMBOS.entries()) {
      const ok = sliceMatches(await text(urls[i]!), reference, combo);
      if (!ok) wrong++;
      process.stderr.write(`  slice ${query(combo)}: first ${Math.round(firstMs[i]!)} ms${ok ? '' : ' WRONG'}\n`);
    }
    return {
      slice_rows: ROWS,
      slice_combinations: COMBOS.length,
      any_slice_first_ms: Math.round(Math.max(...firstMs)),
      any_slice_first_median_ms: Math.round([...firstMs].sort((a, b) => a - b)[Math.floor(firstMs.length / 2)]!),
      any_slice_later_ms: Math.round(Math.max(...laterMs)),
      slice_wrong: wrong,
    };
  } finally {
    await runtime.stop();
  }
}
