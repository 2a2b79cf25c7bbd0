import * as z from '../../platform/zod';
import { nowIso } from '../../platform/clock';
import { isCarrier } from '../carriers';
import type { CarrierTestOutcome, CarrierTestPort, CarrierTestRequest } from './port';

// Client of a device-lab HTTP API (handsets on each carrier that receive test calls). The contract
// is ours, documented in docs/spam-monitoring.md ("Device-lab contract"):
//   POST {base}/v1/test-calls          {from, carrier, reference}          -> 201/202 {id, status}
//   GET  {base}/v1/test-calls/{id}                                        -> 200 TestCall
//   GET  {base}/v1/test-calls/{id}/screenshot                             -> 200 image/jpeg|png bytes
// All with `Authorization: Bearer <token>`.

const TestCall = z.lazySchema(() => z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  status: z.enum(['queued', 'dialing', 'running', 'completed', 'failed']),
  spam_detected: z.nullish(z.boolean()),
  displayed_label: z.nullish(z.string().check(z.maxLength(200))),
  sip_response_code: z.nullish(z.union([z.string().check(z.maxLength(10)), z.number().check(z.int())])),
  caller_id_verified: z.nullish(z.boolean()),
  originating_carrier: z.nullish(z.string()),
  screenshot_available: z.nullish(z.boolean()),
  captured_at: z.nullish(z.string()),
  error: z.nullish(z.string().check(z.maxLength(1000))),
}));
type TestCall = z.infer<typeof TestCall>;

export interface DeviceLabOptions {
  baseUrl: string;
  token: () => Promise<string>;
  pollIntervalMs?: number;
  /** Give up on a call that has not finished after this long (counted in polls, not wall time). */
  maxPolls?: number;
  requestTimeoutMs?: number;
  fetchFn?: typeof fetch;
}

const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;

export class DeviceLabCarrierTests implements CarrierTestPort {
  readonly name = 'device-lab';
  readonly simulated = false;
  private readonly base: string;

  constructor(private readonly options: DeviceLabOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'https:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      throw new Error('DEVICE_LAB_URL must be https (plain http is allowed only on loopback)');
    }
    this.base = url.toString().replace(/\/+$/, '');
  }

  async runTest(request: CarrierTestRequest): Promise<CarrierTestOutcome> {
    try {
      const created = await this.call('POST', '/v1/test-calls', { from: request.phoneNumber, carrier: request.carrier, reference: request.testRunId });
      let call = TestCall.parse(await created.json());
      const maxPolls = this.options.maxPolls ?? 60;
      for (let poll = 0; call.status !== 'completed' && call.status !== 'failed'; poll++) {
        if (poll >= maxPolls) return failed(`device lab did not finish the test call after ${maxPolls} polls`, call);
        await sleep(this.options.pollIntervalMs ?? 5000);
        call = TestCall.parse(await (await this.call('GET', `/v1/test-calls/${encodeURIComponent(call.id)}`)).json());
      }
      if (call.status === 'failed') return failed(call.error ?? 'device lab reported the test call failed', call);
      const screenshot = call.screenshot_available === false ? null : await this.screenshot(call.id);
      const label = call.displayed_label ?? null;
      return {
        status: 'completed',
        spam_detected: call.spam_detected ?? (label ? true : null),
        spam_label: label,
        sip_response_code: call.sip_response_code == null ? null : String(call.sip_response_code),
        caller_id_verified: call.caller_id_verified ?? null,
        originating_carrier: isCarrier(call.originating_carrier) ? call.originating_carrier : null,
        screenshot,
        captured_at: call.captured_at && !Number.isNaN(Date.parse(call.captured_at)) ? new Date(call.captured_at).toISOString() : nowIso(),
        error: null,
        simulated: false,
      };
    } catch (error) {
      return failed(`device lab error: ${(error as Error).message}`.slice(0, 500), null);
    }
  }

  private async screenshot(id: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const response = await this.call('GET', `/v1/test-calls/${encodeURIComponent(id)}/screenshot`, undefined, true);
    if (response.status === 404) return null;
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType !== 'image/jpeg' && contentType !== 'image/png') return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_SCREENSHOT_BYTES) return null;
    return { bytes, contentType };
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown, allow404 = false): Promise<Response> {
    const response = await (this.options.fetchFn ?? fetch)(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.options.token()}`, ...(body ? { 'content-type': 'application/json' } : {}), accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 10_000),
    });
    if (!response.ok && !(allow404 && response.status === 404)) {
      await response.body?.cancel();
      throw new Error(`${method} ${path} answered ${response.status}`);
    }
    return response;
  }
}

function failed(error: string, call: TestCall | null): CarrierTestOutcome {
  return {
    status: 'failed',
    spam_detected: null,
    spam_label: null,
    sip_response_code: call?.sip_response_code == null ? null : String(call.sip_response_code),
    caller_id_verified: null,
    originating_carrier: isCarrier(call?.originating_carrier) ? call.originating_carrier : null,
    screenshot: null,
    captured_at: null,
    error,
    simulated: false,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
