import { parse as csvParse } from 'csv-parse/sync';
import { startRuntime } from '../local/runtime';
import { settleWorkflows } from '../local/workflow';

const ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 250_000);

/** A customer-like list: numbers spread over ~24,000 exchanges, names, emails, some quoting. */
export function generateCsv(rows: number): string {
  let state = 12345;
  const rand = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const areas = Array.from({ length: 400 }, (_, i) => String(201 + ((i * 37) % 780)));
  const lines = ['id,name,phone,email,notes'];
  for (let i = 0; i < rows; i++) {
    const npa = areas[rand(areas.length)]!;
    const nxx = String(200 + rand(60) * 13);
    const line = String(rand(10_000)).padStart(4, '0');
    const phone = rand(2) ? `(${npa}) ${nxx}-${line}` : `${npa}-${nxx}-${line}`;
    lines.push(`${i},"Person ${i}, Jr",${phone},p${i}@example.com,${rand(5) ? '' : '"said ""call me"""'}`);
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * Creating an upload from a 250,000-row CSV over the local API, against csv-parse parsing the same
 * file in the same run; then processing it end to end with the simulator, with the peak RSS of
 * this process (which also hosts the embedded table and file store, so it is an upper bound).
 */
export async function runUploadsBench(): Promise<Record<string, number>> {
  const csv = generateCsv(ROWS);
  let t = performance.now();
  csvParse(csv);
  const csvParseMs = performance.now() - t;

  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  // A 250,000-row multipart CSV is over AWS's limits (staging in AWS): raised on purpose for the benchmark.
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, maxPayloadBytes: 150 * 1024 * 1024, seedDemo: true });
  try {
    const form = new FormData();
    form.append('phone_column', 'phone');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    t = performance.now();
    const res = await fetch(`${runtime.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${runtime.demo!.apiKey}` } });
    const createMs = performance.now() - t;
    if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    const upload = (await res.json()) as { id: string; valid_number_count: number };
    t = performance.now();
    await settleWorkflows();
    const processMs = performance.now() - t;
    clearInterval(sampler);
    const done = (await (await fetch(`${runtime.url}/api/v1/uploads/${upload.id}`, { headers: { authorization: `Bearer ${runtime.demo!.apiKey}` } })).json()) as { status: string };
    if (done.status !== 'completed') throw new Error(`upload ended ${done.status}`);
    return {
      upload_rows: ROWS,
      upload_valid_numbers: upload.valid_number_count,
      csv_parse_250k_ms: Math.round(csvParseMs),
      create_250k_ms: Math.round(createMs),
      create_vs_parse_ratio: Number((createMs / csvParseMs).toFixed(2)),
      process_250k_ms: Math.round(processMs),
      process_peak_rss_mb: Math.round(peak / 1024 / 1024),
    };
  } finally {
    await runtime.stop();
  }
}
