import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRuntime, type Runtime } from '../../local/runtime';
import type { PortOverrides } from '../../local/composition';
import { manualClock, type ManualClock } from './manual-clock';

export interface TestService {
  runtime: Runtime;
  url: string;
  /** The seeded demo organization's key. */
  apiKey: string;
  organizationId: string;
  userId: string;
  /**
   * The runtime's clock: real time until a test sets it. What the runtime serves and runs reads it;
   * a use case the test calls directly reads it inside `clock.run(…)`. Back to real time after
   * every test, so a pinned clock never outlives its test.
   */
  clock: ManualClock;
  request(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string>; key?: string | null }): Promise<Response>;
}

/**
 * Starts the whole local runtime (embedded DynamoDB and S3, or AWS_ENDPOINT_URL when set, e.g.
 * LocalStack) on a free loopback port for one test file, with a fresh demo organization. `ports`
 * puts a test's stand-ins into the runtime's composition root (they live as long as the runtime).
 */
export function useTestService(options: { ports?: PortOverrides } = {}): TestService {
  const service = { clock: manualClock() } as TestService;
  afterEach(() => service.clock.set(null));
  beforeAll(async () => {
    // Each test file gets its own table so files running against one shared endpoint do not collide.
    process.env.TABLE_NAME = `test-${Math.random().toString(36).slice(2, 10)}`;
    // Tests run the contact pool themselves (runContactPool), so its timer must not race them.
    process.env.CONTACT_POOL_INTERVAL_MS ??= '3600000';
    process.env.LOCAL_RECOVERY_INTERVAL_MS ??= '3600000';
    // So do they sweep webhook deliveries (sweepDueDeliveries); a sweep every minute also put a
    // DynamoDB call into tests that count the calls a request makes.
    process.env.LOCAL_WEBHOOK_SWEEP_INTERVAL_MS ??= '3600000';
    const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 110 * 1024 * 1024, seedDemo: true, ports: options.ports, clock: service.clock });
    service.runtime = runtime;
    service.url = runtime.url;
    service.apiKey = runtime.demo!.apiKey!;
    service.organizationId = runtime.demo!.organizationId;
    service.userId = runtime.demo!.userId;
    service.request = (method, path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      const key = init.key === undefined ? service.apiKey : init.key;
      if (key !== null) headers.authorization ??= `Bearer ${key}`;
      let body: string | Buffer | undefined;
      if (init.body !== undefined) {
        if (typeof init.body === 'string' || Buffer.isBuffer(init.body)) body = init.body;
        else {
          body = JSON.stringify(init.body);
          headers['content-type'] ??= 'application/json';
        }
      }
      return fetch(`${runtime.url}${path}`, { method, headers, body });
    };
  });
  afterAll(async () => {
    await service.runtime?.stop();
  });
  return service;
}
