import { describe, expect, it } from 'vitest';
import { checkReadiness, readinessAnswer, type DependencyCheck } from '../../../lambdas/platform/ready-probe';

const ok: DependencyCheck = { name: 'table', ask: async () => {} };

describe('readiness', () => {
  it('is ready when every dependency answers', async () => {
    const readiness = await checkReadiness([ok, { name: 'file_store', ask: async () => {} }], 1_000);
    expect(readiness.ready).toBe(true);
    expect(readinessAnswer(readiness)).toEqual({ status: 200, body: { status: 'ready', checks: { table: { status: 'ok', ms: expect.any(Number) }, file_store: { status: 'ok', ms: expect.any(Number) } } } });
  });

  it('names the dependency that failed, by its error name or code only, in the error envelope', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4569 (internal address)'), { code: 'ECONNREFUSED' });
    const failures: string[] = [];
    const readiness = await checkReadiness([ok, { name: 'file_store', ask: async () => Promise.reject(refused) }], 1_000, (name) => failures.push(name));
    expect(failures).toEqual(['file_store']);
    const answer = readinessAnswer(readiness);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      detail: {
        error: 'not_ready',
        message: 'Not ready: no answer from file_store (ECONNREFUSED)',
        checks: { table: { status: 'ok', ms: expect.any(Number) }, file_store: { status: 'failed', ms: expect.any(Number), error: 'ECONNREFUSED' } },
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
  });

  it('bounds a dependency that never answers, and aborts its request', async () => {
    let aborted = false;
    const hangs: DependencyCheck = {
      name: 'table',
      ask: (signal) =>
        new Promise<void>(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    };
    const readiness = await checkReadiness([hangs, { name: 'file_store', ask: async () => Promise.reject(new Error('plain')) }], 50);
    expect(readiness.checks).toEqual({ table: { status: 'failed', ms: expect.any(Number), error: 'timeout' }, file_store: { status: 'failed', ms: expect.any(Number), error: 'error' } });
    expect(aborted).toBe(true);
    expect((readinessAnswer(readiness).body as { detail: { message: string } }).detail.message).toBe('Not ready: no answer from table (timeout), file_store (error)');
  });
});
