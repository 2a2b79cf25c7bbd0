import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A Twilio Lookup v2 stand-in on loopback (GET /v2/PhoneNumbers/{e164}): answers every number as a
// mobile line, with the faults a test or the bench injects. It keeps the books a real account
// would: a lookup is paid when its 200 answer was delivered (a request dropped by a killed client,
// or answered 429/5xx, is not), and the account's rate is enforced (429 above it, +1 burst).

export interface FakeTwilioOptions {
  /** The account's rate: more requests than this in the last second (plus one) are answered 429. */
  ratePerSecond?: number;
  /** Milliseconds before answering a number (a slow provider). */
  delayMs?: (e164: string, attempt: number) => number;
  /** A status to answer instead (429, 500, 503…), by number and attempt (1-based). */
  fault?: (e164: string, attempt: number) => number | null;
}

/** Faults as data (for a fake in another process): every Nth number (by its last four digits) on its first try. */
export interface FaultPlan {
  ratePerSecond?: number;
  delayMs?: number;
  throttleEvery?: number;
  errorEvery?: number;
  slowEvery?: number;
  slowMs?: number;
}

export function faultOptions(plan: FaultPlan): FakeTwilioOptions {
  const every = (e164: string, n: number | undefined) => n !== undefined && Number(e164.slice(-4)) % n === 0;
  return {
    ratePerSecond: plan.ratePerSecond,
    delayMs: (e164, attempt) => (attempt === 1 && every(e164, plan.slowEvery) ? (plan.slowMs ?? 0) : (plan.delayMs ?? 0)),
    fault: (e164, attempt) => (attempt === 1 && every(e164, plan.throttleEvery) ? 429 : attempt === 1 && every(e164, plan.errorEvery) ? 503 : null),
  };
}

export interface FakeTotals {
  /** Paid lookups. */
  paid: number;
  requests: number;
  rateLimited: number;
  held: number;
}
export interface FakeStats extends FakeTotals {
  byNumber: [string, number][];
  arrivals: number[];
  /** Each paid lookup: the number and when its answer was delivered (ms), in order. */
  paidLog: [string, number][];
}

/** A fake in another process, through its control endpoints. */
export function remoteFakeTwilio(url: string) {
  const post = async (path: string, body?: unknown) => void (await fetch(`${url}/__fake/${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) })).text();
  return {
    url,
    totals: async (): Promise<FakeTotals> => (await (await fetch(`${url}/__fake/totals`)).json()) as FakeTotals,
    stats: async (): Promise<FakeStats> => (await (await fetch(`${url}/__fake/stats`)).json()) as FakeStats,
    hold: () => post('hold'),
    release: () => post('release'),
    plan: (plan: FaultPlan) => post('options', plan),
  };
}

export interface FakeTwilio {
  url: string;
  /** Requests per number, faults and dropped ones included. */
  readonly requests: Map<string, number>;
  /** Paid lookups per number. */
  readonly paid: Map<string, number>;
  /** Each paid lookup: the number and when its answer was delivered (ms), in order. */
  readonly paidLog: [string, number][];
  /** When each request arrived (ms), in order. */
  readonly arrivals: number[];
  /** Requests answered 429 because the account's rate was exceeded. */
  readonly rateLimited: number;
  /** Requests waiting, not answered, while held. */
  readonly held: number;
  /** Holds every new request unanswered until `release` (a test then kills the client mid-lookup). */
  hold(): void;
  release(): void;
  paidTotal(): number;
  options: FakeTwilioOptions;
  close(): Promise<void>;
}

export async function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const requests = new Map<string, number>();
  const paid = new Map<string, number>();
  const paidLog: [string, number][] = [];
  const arrivals: number[] = [];
  let rateLimited = 0;
  let holding = false;
  const waiting = new Set<() => void>();
  const recent: number[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/__fake/')) return control(req, res);
    const now = Date.now();
    arrivals.push(now);
    const e164 = decodeURIComponent(new URL(req.url ?? '/', 'http://fake').pathname.split('/').pop() ?? '');
    const attempt = (requests.get(e164) ?? 0) + 1;
    requests.set(e164, attempt);
    const rate = fake.options.ratePerSecond;
    if (rate !== undefined) {
      while (recent.length && recent[0]! <= now - 1000) recent.shift();
      if (recent.length >= rate + 1) {
        rateLimited++;
        return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"code":20429,"message":"Too Many Requests","status":429}');
      }
      recent.push(now);
    }
    const answer = () => {
      if (res.destroyed || req.socket.destroyed) return;
      const status = fake.options.fault?.(e164, attempt) ?? null;
      if (status !== null) return void res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) }).end(JSON.stringify({ code: 20000 + status, status }));
      res.on('finish', () => {
        paid.set(e164, (paid.get(e164) ?? 0) + 1);
        paidLog.push([e164, Date.now()]);
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phone_number: e164, valid: true, line_type_intelligence: { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } }));
    };
    const respond = () => {
      const delay = fake.options.delayMs?.(e164, attempt) ?? 0;
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    };
    if (!holding) return respond();
    const go = () => {
      waiting.delete(go);
      respond();
    };
    waiting.add(go);
    req.socket.once('close', () => waiting.delete(go));
  });
  // The same books and switches over HTTP, for a fake in a process of its own (remoteFakeTwilio).
  function control(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const path = req.url!.slice('/__fake/'.length).split('?')[0];
      if (path === 'hold') fake.hold();
      else if (path === 'release') fake.release();
      else if (path === 'options') fake.options = faultOptions(JSON.parse(body || '{}') as FaultPlan);
      const totals: FakeTotals = { paid: fake.paidTotal(), requests: arrivals.length, rateLimited, held: waiting.size };
      const answer = path === 'stats' ? { ...totals, byNumber: [...paid], arrivals, paidLog } : totals;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  }
  await new Promise<void>((r) => server.listen(Number(process.env.FAKE_TWILIO_PORT ?? 0), '127.0.0.1', r));
  const fake: FakeTwilio = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    paid,
    paidLog,
    arrivals,
    get rateLimited() {
      return rateLimited;
    },
    get held() {
      return waiting.size;
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const go of [...waiting]) go();
    },
    paidTotal: () => [...paid.values()].reduce((a, b) => a + b, 0),
    options,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}

/** The most requests in any window of `windowMs` (each window starting at a request). */
export function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[j]! <= sorted[i]! - windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}
