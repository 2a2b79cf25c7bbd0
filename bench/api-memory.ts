import { startRuntime } from '../local/runtime';
import * as admin from '../lambdas/admin/admin';
import { singleColumnCsv } from './csv-files';
import { measureApiCreate, widenedCsv } from './api-create';

const ROWS = 250_000;
const MAX_BYTES = 100 * 1024 * 1024;

/**
 * `npm run bench -- api-memory` (not part of the default run: it builds, stages and parses a 100 MB
 * file): the uploads API function's own peak memory creating an upload from a staged CSV of
 * 250,000 rows (about 17 MB) and from one of 100 MB (250,000 wide rows), each create in a process
 * of its own running the bundled function code. docs/operations.md, Memory.
 */
export async function runApiMemoryBench(): Promise<Record<string, number>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, seedDemo: false, ports: { workflow: async () => {} } });
  try {
    const org = await admin.createOrganization({ name: 'API memory bench', subscriptionActive: true, credits: 1_000_000 });
    const user = await admin.createUser(`bench-${org.id}@example.test`);
    await admin.addMember(org.id, user.id, 'owner');
    const { key } = await admin.mintKey(org.id, user.id);
    const rows = await measureApiCreate(runtime, key, singleColumnCsv(ROWS));
    const wide = await measureApiCreate(runtime, key, widenedCsv(ROWS, MAX_BYTES - 64 * 1024));
    return {
      api_create_rows: ROWS,
      api_create_bytes: rows.bytes,
      api_create_peak_rss_mb: rows.peakMb,
      api_create_idle_rss_mb: rows.idleMb,
      api_create_ms: rows.ms,
      api_create_100mb_bytes: wide.bytes,
      api_create_100mb_peak_rss_mb: wide.peakMb,
      api_create_100mb_ms: wide.ms,
    };
  } finally {
    await runtime.stop();
  }
}
