import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLocalBundle, LOCAL_BUNDLE_DIR, LOCAL_NODE_ARGS, localBundleFiles } from '../bin/local-bundle';

const peakKbOf = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const rssKbOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
/** The process's CPU time so far (user + system, /proc/<pid>/stat's utime and stime in clock ticks of 10 ms, every thread), ms. */
const cpuMsOf = (pid: number): number => {
  // The command name (field 2) may hold spaces; the fields counted from after its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** Stages `csv` as a client does (the only way a file over 4.4 MB passes AWS's limits) and creates an upload from it. */
async function stageAndCreate(url: string, apiKey: string, csv: string, fields: Record<string, string>): Promise<string> {
  const auth = { authorization: `Bearer ${apiKey}` };
  const slotRes = await fetch(`${url}/api/v1/uploads/staging`, { method: 'POST', headers: auth });
  if (slotRes.status !== 200) throw new Error(`staging answered ${slotRes.status}: ${await slotRes.text()}`);
  const slot = (await slotRes.json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [k, v] of Object.entries(slot.fields)) form.append(k, v);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  const put = await fetch(slot.url, { method: 'POST', body: form });
  if (put.status >= 300) throw new Error(`staged POST answered ${put.status}: ${await put.text()}`);
  const res = await fetch(`${url}/api/v1/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ staged_upload_id: slot.staged_upload_id, ...fields }) });
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** A GET, again if the server closed the kept-alive connection under it (it closes idle ones). */
async function get(url: string, headers: Record<string, string>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(url, { headers });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function completed(url: string, apiKey: string, id: string): Promise<void> {
  for (;;) {
    const res = await get(`${url}/api/v1/uploads/${id}`, { authorization: `Bearer ${apiKey}` });
    const upload = (await res.json()) as { status: string };
    if (upload.status === 'completed') return;
    if (upload.status === 'failed') throw new Error(`upload ${id} failed`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface LocalPeak {
  idleKb: number;
  /** The process's peak after each upload was created and processed, in order. */
  peaksKb: number[];
  /** The process's CPU time for each upload, from its staging to its completion (what the collections that hold the peak cost shows here). */
  cpuMs: number[];
}

/**
 * One `npm start` process (bin/local.ts, bundled and started as package.json's "start" does, on a
 * fresh data folder, AWS's request limits) through whole uploads, one after another: staged,
 * created, processed by the embedded workflow to `completed`. Its peak memory (VmHWM) is read
 * after each from /proc, from this process, so the client's copy of the file is not counted.
 * Everything the runtime does runs in that one process (no child processes to add).
 */
export async function measureLocalPeak(csvs: string[], fields: Record<string, string>): Promise<LocalPeak> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-local-'));
  // The program `npm start` runs (bin/local.ts bundled, package.json "start"), run as it runs it.
  const bundle = await buildLocalBundle('bin/local.ts', join(LOCAL_BUNDLE_DIR, `local-bench-${process.pid}.mjs`));
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', FILES_PORT: '0', HOST: '127.0.0.1', POWERTOOLS_LOG_LEVEL: 'WARN', CONTACT_POOL_INTERVAL_MS: '3600000' };
  const child = spawn(process.execPath, [...LOCAL_NODE_ARGS, bundle], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const started = await new Promise<{ url: string; apiKey: string; pid: number }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        // The banner's line that sets what the README's examples use (bin/local.ts).
        const set = /export API=(\S+) KEY=(\S+)/.exec(out);
        if (set) resolve({ url: set[1]!, apiKey: set[2]!, pid: child.pid! });
      });
      child.on('exit', (code) => reject(new Error(`npm start's program exited ${code} before it started`)));
    });
    const idleKb = rssKbOf(started.pid);
    const peaksKb: number[] = [];
    const cpuMs: number[] = [];
    for (const csv of csvs) {
      const before = cpuMsOf(started.pid);
      const id = await stageAndCreate(started.url, started.apiKey, csv, fields);
      await completed(started.url, started.apiKey, id);
      cpuMs.push(cpuMsOf(started.pid) - before);
      peaksKb.push(peakKbOf(started.pid));
    }
    return { idleKb, peaksKb, cpuMs };
  } finally {
    // A child that already died has nothing to wait for.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    for (const file of localBundleFiles(bundle)) rmSync(file, { force: true });
  }
}
