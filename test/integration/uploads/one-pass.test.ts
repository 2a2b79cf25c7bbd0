import { describe, expect, it } from 'vitest';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { useTestService } from '../../support/runtime';
import { csvParseCount } from '../../../lambdas/uploads/csv';
import { normalizationCount } from '../../../lambdas/classification/normalize';
import { filesBucket, getObject, s3 } from '../../../lambdas/platform/blob';
import { keys } from '../../../lambdas/uploads/upload';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { buildProcessedCsv } from '../../../lambdas/uploads/processed-file';
import { workFromOriginal } from '../../../lambdas/uploads/pipeline/work-from-original';
import { readWorkRows, storedLayoutOf, storedRowsOf } from '../../../lambdas/uploads/work-file';
import { layoutIndexOf, readLayoutIndex } from '../../../lambdas/uploads/layout-index';
import { parseResults } from '../../../lambdas/uploads/results';

// Issue 15, item 2: an upload's original is parsed once (at create) and each number normalized
// once; the pipeline and the downloads use what create stored (work-file.ts) and write the same
// files as parsing the original again would.

const service = useTestService();

/** A file with what the spans must survive: BOM, CRLF and a bare LF, quoted commas and newlines, short rows, formula cells, non-ASCII text, no final newline. */
function awkwardCsv(rows: number): { csv: Buffer; cells: number } {
  const lines = ['id,name,mobile,home,note'];
  let cells = 0;
  for (let i = 0; i < rows; i++) {
    const mobile = i % 7 === 0 ? '' : `(212) 555-${String(1000 + i).padStart(4, '0')}`;
    const home = i % 5 === 0 ? 'n/a' : i % 3 === 0 ? '' : `+1 646 555 ${String(2000 + i).padStart(4, '0')}`;
    const note = i % 11 === 0 ? '=SUM(A1)' : i % 13 === 0 ? '"line1\nline2, quoted"' : '';
    // Non-ASCII names (2-, 3- and 4-byte UTF-8) make record offsets differ from byte offsets.
    const name = i % 4 === 0 ? '"Doë, Jané €"' : i % 6 === 1 ? '"Doe 😀, Jane"' : '"Doe, Jane"';
    const line = i % 17 === 0 ? `${i},${name},${mobile}` : `${i},${name},${mobile},${home},${note}`;
    cells += (mobile ? 1 : 0) + (home && i % 17 !== 0 ? 1 : 0);
    lines.push(line);
  }
  let text = '';
  lines.forEach((l, i) => (text += l + (i === lines.length - 1 ? '' : i % 9 === 0 ? '\n' : '\r\n')));
  return { csv: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]), cells };
}

async function create(csv: Buffer): Promise<string> {
  const form = new FormData();
  form.append('phone_columns', 'mobile,home');
  form.append('full_name_column', 'name');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'awkward.csv');
  const res = await fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${service.apiKey}` } });
  const json = (await res.json()) as { id: string; detail?: string };
  expect(res.status, json.detail).toBe(200);
  return json.id;
}

async function linkBytes(path: string): Promise<Buffer> {
  const res = await service.request('GET', path);
  expect(res.status).toBe(200);
  const file = await fetch(((await res.json()) as { url: string }).url);
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

describe('one pass over each upload', () => {
  it('parses the original once and normalizes each number once, create and processing together', async () => {
    await service.runtime.settleWorkflows();
    const { csv, cells } = awkwardCsv(300);
    const [parses, normalizations] = [csvParseCount(), normalizationCount()];
    const id = await create(csv);
    await service.runtime.settleWorkflows();
    expect((await getUpload(id))?.status).toBe('completed');
    expect(csvParseCount() - parses).toBe(1);
    expect(normalizationCount() - normalizations).toBe(cells);
  });

  it('writes the processed file and its slices exactly as parsing the original again would', async () => {
    const { csv } = awkwardCsv(300);
    const id = await create(csv);
    await service.runtime.settleWorkflows();
    const upload = (await getUpload(id))!;
    const results = parseResults((await getObject(filesBucket(), keys.results(upload)))!);
    const expected = (options = {}) => Buffer.from(buildProcessedCsv(csv.toString('utf8'), upload.phone_columns, true, results, options), 'utf8');
    expect((await linkBytes(`/api/v1/uploads/${id}/download/processed`)).equals(expected())).toBe(true);
    expect((await linkBytes(`/api/v1/uploads/${id}/download/processed?neutralize_formulas=true`)).equals(expected({ neutralizeFormulas: true }))).toBe(true);
    expect((await linkBytes(`/api/v1/uploads/${id}/download/processed?sort=best_status`)).equals(expected({ sort: 'best_status' }))).toBe(true);
    const statuses = new Set(['1 - Likely Right-Party Answer', '2 - Likely Answer', '3 - Likely Right-Party Call Screening', '4 - Likely Call Screening']);
    expect((await linkBytes(`/api/v1/uploads/${id}/download/processed-filtered`)).equals(expected({ statuses }))).toBe(true);
  });

  it('an upload stored before the work file existed is read from its original, to the same rows and spans', async () => {
    const { csv } = awkwardCsv(150);
    const id = await create(csv);
    await service.runtime.settleWorkflows();
    const upload = (await getUpload(id))!;
    const [work, layout] = await Promise.all([getObject(filesBucket(), keys.work(upload)), getObject(filesBucket(), keys.layout(upload))]);
    await (await s3()).send(new DeleteObjectCommand({ Bucket: filesBucket(), Key: keys.work(upload) }));
    await (await s3()).send(new DeleteObjectCommand({ Bucket: filesBucket(), Key: keys.layout(upload) }));
    const reread = await workFromOriginal(upload);
    // The rows as prepare reads them, the spans as finalize and the downloads read them.
    expect(storedRowsOf(reread.rows, upload.phone_columns.length)).toEqual(readWorkRows(work!));
    expect(layoutIndexOf(storedLayoutOf(reread.layout))).toEqual(readLayoutIndex(layout!));
  });

  it("creates at once, on the Buffers the creates before them gave back (create-buffers.ts), each store their own rows and spans", async () => {
    // Work files over 1 MiB are joined in the pool's Buffers; the first create leaves its Buffers there.
    const file = (k: number) => Buffer.from(awkwardCsv(36_000).csv.toString('utf8').replaceAll('Jane', `Jane ${k}`), 'utf8');
    await create(file(0));
    const ids = await Promise.all([1, 2, 3, 4].map((k) => create(file(k))));
    await service.runtime.settleWorkflows();
    for (const id of ids) {
      const upload = (await getUpload(id))!;
      const [work, layout] = await Promise.all([getObject(filesBucket(), keys.work(upload)), getObject(filesBucket(), keys.layout(upload))]);
      expect(work!.length).toBeGreaterThan(1024 * 1024);
      const reread = await workFromOriginal(upload);
      expect(storedRowsOf(reread.rows, upload.phone_columns.length)).toEqual(readWorkRows(work!));
      expect(layoutIndexOf(storedLayoutOf(reread.layout))).toEqual(readLayoutIndex(layout!));
    }
  });

  it('the common slices exist when processing ends; a download checks them with HEAD and never reads them', async () => {
    const { csv } = awkwardCsv(120);
    const id = await create(csv);
    await service.runtime.settleWorkflows();
    const commands: string[] = [];
    (await s3()).middlewareStack.add((next, context) => (args) => {
      commands.push(`${context.commandName} ${String((args.input as { Key?: string }).Key)}`);
      return next(args);
    }, { step: 'deserialize', name: 'onePassTestRecorder' });
    try {
      const res = await service.request('GET', `/api/v1/uploads/${id}/download/processed-filtered`);
      expect(res.status).toBe(200);
      const res2 = await service.request('GET', `/api/v1/uploads/${id}/download/processed?sort=best_status`);
      expect(res2.status).toBe(200);
    } finally {
      (await s3()).middlewareStack.remove('onePassTestRecorder');
    }
    expect(commands.filter((c) => c.includes('/slices/'))).toEqual([expect.stringMatching(/^HeadObjectCommand /), expect.stringMatching(/^HeadObjectCommand /)]);
    expect(commands.filter((c) => c.startsWith('GetObjectCommand') || c.startsWith('PutObjectCommand'))).toEqual([]);
  });
});
