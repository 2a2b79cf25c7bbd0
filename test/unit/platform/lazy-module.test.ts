import { describe, expect, it } from 'vitest';
import { lazyModule } from '../../../lambdas/platform/aws/lazy-module';

describe('lazyModule (an SDK client loaded at first use)', () => {
  it('loads nothing until first used, then once for every caller, concurrent ones included', async () => {
    let loads = 0;
    const load = lazyModule(async () => {
      loads++;
      return { value: loads };
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    const c = await load();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('keeps no failed load: the next use tries again, and a success is then kept', async () => {
    let attempts = 0;
    const load = lazyModule(async () => {
      attempts++;
      if (attempts === 1) throw new Error('chunk not readable');
      return 'module';
    });
    await expect(load()).rejects.toThrow('chunk not readable');
    await expect(load()).resolves.toBe('module');
    await expect(load()).resolves.toBe('module');
    expect(attempts).toBe(2);
  });

  it('loads a real module through import(), the same instance as a static import would give', async () => {
    const load = lazyModule(() => import('@aws-sdk/client-sqs'));
    const { SQSClient } = await import('@aws-sdk/client-sqs');
    expect((await load()).SQSClient).toBe(SQSClient);
  });
});
