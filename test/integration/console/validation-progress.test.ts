import { describe, expect, it, vi } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { consoleToken } from '../../support/console-token';
import { useTestService } from '../../support/runtime';
import { db } from '../../../lambdas/platform/table';
import { VALIDATION_PROGRESS_ROWS } from '../../../lambdas/console/web-upload';

// Validation records how far it is on the draft (validated_rows of total_rows), at a bounded rate:
// one write per VALIDATION_PROGRESS_ROWS rows, never one per row, and the console's upload endpoint
// answers it while the validating request is still open.

const service = useTestService();

interface DraftView {
  id: string;
  status: string;
  total_rows: number;
  validated_rows?: number;
}

async function call(token: string, method: string, path: string, body?: string | object): Promise<{ status: number; draft: DraftView }> {
  const res = await fetch(`${service.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, draft: ((await res.json()) as { draft: DraftView }).draft };
}

const callList = (rows: number) => ['name,phone', ...Array.from({ length: rows }, (_, i) => `P${i},(212) ${300 + (i % 600)}-${String(i % 10_000).padStart(4, '0')}`)].join('\n') + '\n';

type Send = (command: unknown) => Promise<unknown>;

/** Every progress write on one draft, and what the upload endpoint answered right after each. */
function watchProgress(id: string, token: string) {
  const client = db() as unknown as { send: Send };
  const send = client.send.bind(client);
  const writes: number[] = [];
  const answered: DraftView[] = [];
  const spy = vi.spyOn(client, 'send').mockImplementation(async (command) => {
    const out = await send(command);
    const input = command instanceof UpdateCommand ? command.input : null;
    if (input && (input.Key as { pk?: string }).pk === `WEBUPLOAD#${id}` && input.UpdateExpression?.includes('validated_rows = :n')) {
      writes.push(input.ExpressionAttributeValues![':n'] as number);
      answered.push((await call(token, 'GET', `/uploads/${id}`)).draft);
    }
    return out;
  });
  return { writes, answered, stop: () => spy.mockRestore() };
}

describe('validation progress', () => {
  it('is written every VALIDATION_PROGRESS_ROWS rows while validating, answered by the upload endpoint, and ends at total_rows', async () => {
    const token = await consoleToken(service, service.userId);
    const rows = 4 * VALIDATION_PROGRESS_ROWS + 1_234;
    const started = await call(token, 'POST', '/uploads?filename=progress.csv', callList(rows));
    expect(started.status).toBe(200);
    expect(started.draft.total_rows).toBe(rows);
    expect(started.draft.validated_rows).toBeUndefined();
    const id = started.draft.id;
    const watch = watchProgress(id, token);
    try {
      const mapped = await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
      expect(mapped.draft).toMatchObject({ status: 'awaiting_confirmation', total_rows: rows, validated_rows: rows });
      // Four writes for 41,234 rows (one per 10,000; none per row, none for the last partial step).
      expect(watch.writes).toEqual([1, 2, 3, 4].map((k) => k * VALIDATION_PROGRESS_ROWS));
      // While the mapping request was still open, the endpoint answered each value: validating, rising.
      expect(watch.answered.map((d) => [d.status, d.validated_rows, d.total_rows])).toEqual(watch.writes.map((n) => ['validating', n, rows]));
    } finally {
      watch.stop();
    }
    // Validating again starts from 0 and ends at total_rows again; a small file writes nothing in between.
    const small = await call(token, 'POST', '/uploads?filename=small.csv', callList(500));
    const smallId = small.draft.id;
    const watchSmall = watchProgress(smallId, token);
    try {
      expect((await call(token, 'POST', `/uploads/${smallId}/mapping`, { phone_columns: ['phone'] })).draft.validated_rows).toBe(500);
      expect(watchSmall.writes).toEqual([]);
    } finally {
      watchSmall.stop();
    }
  });

  it('a row the rules refuse stops the count where validation stopped', async () => {
    const token = await consoleToken(service, service.userId);
    const lines = callList(2 * VALIDATION_PROGRESS_ROWS + 500).split('\n');
    lines[VALIDATION_PROGRESS_ROWS + 300] = 'a,b,c,d';
    const started = await call(token, 'POST', '/uploads?filename=bad-row.csv', lines.join('\n'));
    const id = started.draft.id;
    const failed = await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
    expect(failed.draft).toMatchObject({ status: 'validation_failed', validated_rows: VALIDATION_PROGRESS_ROWS });
  });
});
