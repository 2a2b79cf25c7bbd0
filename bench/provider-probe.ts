import { monitorEventLoopDelay } from 'node:perf_hooks';

// Where the time goes in the providers bench's concurrent run (in this process): CPU used against
// wall time, how late the event loop runs its callbacks, and how long each request to the provider
// fake takes from the moment it is sent (so time on the provider is told apart from time waiting
// on the limiter, which the limiter's own stats count).

export interface ProbeReport {
  wallMs: number;
  /** This process's CPU (user + system) over the wall time: 1.0 is one core busy throughout. */
  cpuCores: number;
  /** The event loop's delay: median, 99th percentile and most, in ms. */
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Requests to the provider and their mean and 99th percentile time, in ms. */
  providerRequests: number;
  providerMeanMs: number;
  providerP99Ms: number;
  /** When each request was sent (epoch ms): the rate as this process kept it, before the network and the fake's own delays. */
  sentAt: number[];
}

/** Starts probing; `stop` ends it and reports. Requests whose URL starts with `providerUrl` are timed. */
export function startProbe(providerUrl: string): { stop: () => ProbeReport } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const times: number[] = [];
  const sentAt: number[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(providerUrl)) return original(input, init);
    const sent = performance.now();
    sentAt.push(Date.now());
    try {
      const res = await original(input, init);
      const body = await res.arrayBuffer();
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      times.push(performance.now() - sent);
    }
  };
  return {
    stop() {
      globalThis.fetch = original;
      loop.disable();
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const sorted = [...times].sort((a, b) => a - b);
      const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
      return {
        wallMs: Math.round(wallMs),
        cpuCores: Number(((cpu.user + cpu.system) / 1000 / wallMs).toFixed(2)),
        loopDelayP50Ms: ms(loop.percentile(50)),
        loopDelayP99Ms: ms(loop.percentile(99)),
        loopDelayMaxMs: ms(loop.max),
        providerRequests: times.length,
        providerMeanMs: Number((times.reduce((a, b) => a + b, 0) / Math.max(1, times.length)).toFixed(1)),
        providerP99Ms: Number((sorted[Math.floor(0.99 * (sorted.length - 1))] ?? 0).toFixed(1)),
        sentAt,
      };
    },
  };
}

/** Requests per `bucketMs` from the first arrival on: where the rate was not kept busy. */
export function timeline(arrivals: number[], bucketMs: number): number[] {
  if (!arrivals.length) return [];
  const first = arrivals.reduce((a, b) => Math.min(a, b), Infinity);
  const out: number[] = [];
  for (const a of arrivals) {
    const i = Math.floor((a - first) / bucketMs);
    while (out.length <= i) out.push(0);
    out[i]!++;
  }
  return out;
}
