import type { LookupFunction } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { checkUrl, UnsafeUrlError } from './safe-url';
import type { OutboundNet } from './outbound';
import { rootCertificates } from 'node:tls';

export interface PostOutcome {
  /** True only for a 2xx answer. */
  ok: boolean;
  /** HTTP status, or null when no response arrived (refused URL, network error, timeout). */
  statusCode: number | null;
  /** Network or safety error text; null when a response arrived. */
  error: string | null;
  /** The URL failed the address rules at send time (e.g. DNS now points at a private address). */
  unsafe: boolean;
}

/**
 * POSTs to a customer-supplied URL under the URL-safety rules: resolve once, refuse non-public
 * addresses, connect to the checked address (the host name is kept for TLS SNI and the Host
 * header, so no second lookup can be rebound), follow no redirect, give up after the timeout.
 * Never throws for anything the receiver or the network does.
 */
export async function safePost(net: OutboundNet, rawUrl: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  let checked;
  try {
    checked = await checkUrl(net, rawUrl);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { ok: false, statusCode: null, error: error.message, unsafe: true };
    throw error;
  }
  const timeout = net.timeoutMs;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    // net.connect with autoSelectFamily asks for every address; answer with the checked one only.
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
  const testCa = net.trustedCa;
  try {
    const statusCode = await post(new URL(checked.url), body, headers, pinned, timeout, testCa ? [...rootCertificates, testCa] : undefined);
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: null, unsafe: false };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeNetworkError(error, timeout), unsafe: false };
  }
}

class RequestTimeout extends Error {
  override name = 'TimeoutError';
}

/**
 * One POST with Node's own client on a connection of its own (no agent, no keep-alive, no
 * redirect), connected through `lookup`; the whole exchange bounded by `timeoutMs`. Answers the
 * status once the response head arrives, then reads at most 64 KB of the body so the socket
 * closes cleanly, never the whole body.
 */
function post(url: URL, body: string, headers: Record<string, string>, lookup: LookupFunction, timeoutMs: number, ca: string[] | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    // node:http by getBuiltinModule, not by import: an ES import of it builds a facade that reads
    // every export, WebSocket among them, and Node then loads undici, http2, worker_threads and
    // perf_hooks, about 45 ms of CPU at every cold start that imports this module
    // (docs/performance.md, "Cold imports, fifth step"). Only http: URLs (local receivers) use it.
    const send = url.protocol === 'https:' ? httpsRequest : process.getBuiltinModule('node:http').request;
    const req = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, agent: false, ...(ca ? { ca } : {}) }, (res) => {
      resolve(res.statusCode ?? 0);
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > 64 * 1024) res.destroy();
      });
      res.on('error', () => undefined);
    });
    const timer = setTimeout(() => req.destroy(new RequestTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') {
    return `timed out after ${timeoutMs / 1000} s`;
  }
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message;
  return code ? `${code}: ${message}` : message;
}
