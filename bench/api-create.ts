import type { Runtime } from '../local/runtime';
import { runChild } from './child';
import { bundleChild } from './bundle-child';
import { singleColumnCsv } from './csv-files';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ApiCreateMeasurement {
  /** The create process's own peak (VmHWM), MB and kB. */
  peakMb: number;
  peakKb: number;
  /** Its resident size once the function's modules were loaded, before the create, MB. */
  idleMb: number;
  ms: number;
  bytes: number;
  /** The upload it created (not yet processed: the workflow is not started). */
  id: string;
}

let child: Promise<string> | null = null;

/**
 * Stages `csv` through the API as a client does (POST /api/v1/uploads/staging, then the presigned
 * POST to the file store) and runs the uploads function's create on it in a process of its own
 * (api-create-child.ts), as the Lambda would run it.
 */
export async function measureApiCreate(runtime: Runtime, apiKey: string, csv: string): Promise<ApiCreateMeasurement> {
  const stagedId = await stageCsv(runtime, apiKey, csv);
  child ??= bundleChild('./api-create-child.ts');
  const out = await runChild<{ id: string; ms: number; maxRssKb: number; rssBeforeKb: number }>(await child, [apiKey, stagedId], { ...process.env, ...runtime.environment });
  return { peakMb: Math.round(out.maxRssKb / 1024), peakKb: out.maxRssKb, idleMb: Math.round(out.rssBeforeKb / 1024), ms: Math.round(out.ms), bytes: Buffer.byteLength(csv), id: out.id };
}

/** Stages `csv` as a client does: POST /api/v1/uploads/staging, then the presigned POST to the file store. */
export async function stageCsv(runtime: Runtime, apiKey: string, csv: string): Promise<string> {
  const auth = { authorization: `Bearer ${apiKey}` };
  const slotRes = await fetch(`${runtime.url}/api/v1/uploads/staging`, { method: 'POST', headers: auth });
  if (slotRes.status !== 200) throw new Error(`staging answered ${slotRes.status}: ${await slotRes.text()}`);
  const slot = (await slotRes.json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(slot.fields)) form.append(k, v);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  const put = await fetch(slot.url, { method: 'POST', body: form });
  if (put.status >= 300) throw new Error(`staged POST answered ${put.status}: ${await put.text()}`);
  return slot.staged_upload_id;
}

/**
 * The uploads function's create of a staged `csv` against `parser` on the same text, in one warm
 * process of its own (create-function-child.ts), `rounds` paired rounds: per-round ratios of CPU
 * time. The organization of `apiKey` needs credits for rounds + 1 creates.
 */
export async function createFunctionVsParser(runtime: Runtime, apiKey: string, csv: string, parser: string, rounds: number, dir: string): Promise<number[]> {
  const staged: string[] = [];
  for (let r = 0; r <= rounds; r++) staged.push(await stageCsv(runtime, apiKey, csv));
  const csvPath = join(dir, 'create-function.csv');
  writeFileSync(csvPath, csv);
  const script = await bundleChild('./create-function-child.ts');
  const out = await runChild<{ parserMs: number[]; createMs: number[] }>(script, [apiKey, csvPath, parser, ...staged], { ...process.env, ...runtime.environment });
  return out.createMs.map((ms, r) => ms / out.parserMs[r]!);
}

/**
 * The same rows as `singleColumnCsv(rows)` widened with a `details` column to `bytes` in all: the
 * largest file the API takes (100 MB) at the most rows it takes (250,000), about 420 bytes a row.
 */
export function widenedCsv(rows: number, bytes: number): string {
  const lines = singleColumnCsv(rows).split('\r\n');
  if (lines.at(-1) === '') lines.pop();
  const current = lines.reduce((n, l) => n + Buffer.byteLength(l) + 2, 0);
  const pad = Math.max(0, Math.floor((bytes - current - ',details'.length) / rows) - 1);
  const filler = 'Customer asked for a call back about the renewal; prefers mornings. '.repeat(Math.ceil(pad / 68) + 1).slice(0, pad).replace(/,/g, ';');
  return [`${lines[0]},details`, ...lines.slice(1).map((l) => `${l},${filler}`)].join('\r\n') + '\r\n';
}
