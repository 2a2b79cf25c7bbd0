import { startRuntime } from '../local/runtime';
import * as admin from '../lambdas/admin/admin';
import { singleColumnCsv } from './csv-files';
import { measureApiCreate, widenedCsv } from './api-create';
import { bundleChild } from './bundle-child';
import { processUpload } from './uploads';
import { measureLocalPeak } from './local-memory';

const ROWS = 250_000;
const MAX_BYTES = 100 * 1024 * 1024;
const FIELDS = { phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' };

const kbPerRow = (kb: number): number => Number((kb / ROWS).toFixed(2));

/**
 * `npm run bench -- api-memory` (not part of the default run: it builds, stages and parses a 100 MB
 * file twice): peak memory per row of the two largest uploads the API takes, 250,000 rows (about
 * 17 MB) and 100 MB (250,000 wide rows):
 * - create: the uploads API function creating each from a staged CSV, in a process of its own
 *   running the bundled function code (as the Lambda runs it);
 * - process: each workflow step of each, in processes of their own (pipeline-child.ts); the worst step;
 * - local: one `npm start`-equivalent process (local-child.ts) staging, creating and processing both
 *   to `completed` with its embedded workflow, its peak read from outside.
 * Each `*_kb_per_row` is the worst of the two uploads. docs/performance.md, Memory.
 */
export async function runApiMemoryBench(): Promise<Record<string, number>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const small = singleColumnCsv(ROWS);
  const wide = widenedCsv(ROWS, MAX_BYTES - 64 * 1024);
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, seedDemo: false, ports: { workflow: async () => {} } });
  const out: Record<string, number> = { api_create_rows: ROWS, api_create_bytes: Buffer.byteLength(small), api_create_100mb_bytes: Buffer.byteLength(wide) };
  try {
    const org = await admin.createOrganization({ name: 'API memory bench', subscriptionActive: true, credits: 1_000_000 });
    const user = await admin.createUser(`bench-${org.id}@example.test`);
    await admin.addMember(org.id, user.id, 'owner');
    const { key } = await admin.mintKey(org.id, user.id);
    const pipeline = await bundleChild('./pipeline-child.ts');
    let createWorst = 0;
    let processWorst = 0;
    for (const [name, csv] of [['250k', small], ['100mb', wide]] as const) {
      const created = await measureApiCreate(runtime, key, csv);
      const processed = await processUpload(pipeline, created.id, runtime);
      if (processed.status !== 'completed') throw new Error(`${name} upload ended ${processed.status}`);
      out[`api_create_${name}_peak_rss_mb`] = created.peakMb;
      out[`api_create_${name}_idle_rss_mb`] = created.idleMb;
      out[`api_create_${name}_ms`] = created.ms;
      for (const [step, kb] of Object.entries(processed.stepPeakKb)) out[`process_${name}_peak_rss_mb_${step}`] = Math.round(kb / 1024);
      createWorst = Math.max(createWorst, created.peakKb);
      processWorst = Math.max(processWorst, processed.maxRssKb);
    }
    out.create_peak_kb_per_row = kbPerRow(createWorst);
    process.stderr.write(`${JSON.stringify(out)}\n`);
    out.process_peak_kb_per_row = kbPerRow(processWorst);
  } finally {
    await runtime.stop();
  }
  const local = await measureLocalPeak([small, wide], FIELDS);
  out.local_idle_rss_mb = Math.round(local.idleKb / 1024);
  out.local_peak_rss_mb_250k = Math.round(local.peaksKb[0]! / 1024);
  out.local_peak_rss_mb_100mb = Math.round(local.peaksKb[1]! / 1024);
  out.local_peak_kb_per_row = kbPerRow(Math.max(...local.peaksKb));
  out.local_cpu_ms_250k = local.cpuMs[0]!;
  out.local_cpu_ms_100mb = local.cpuMs[1]!;
  return out;
}
