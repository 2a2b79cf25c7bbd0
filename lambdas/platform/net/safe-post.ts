import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { checkUrl, UnsafeUrlError } from './safe-url';
import { extraTrustedCa, requestTimeoutMs } from './settings';
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
export async function safePost(rawUrl: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  let checked;
  try {
    checked = await checkUrl(rawUrl);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { ok: false, statusCode: null, error: error.message, unsafe: true };
    throw error;
  }
  const timeout = requestTimeoutMs();
  const pinned: LookupFunction = (_hostname, options, callback) => {
    // net.connect with autoSelectFamily asks for every address; answer with the checked one only.
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
  const testCa = extraTrustedCa();
  const agent = new Agent({
    connect: { lookup: pinned, timeout, allowH2: false, ...(testCa ? { ca: [...rootCertificates, testCa] } : {}) },
    headersTimeout: timeout,
    bodyTimeout: timeout,
    pipelining: 0,
  });
  try {
    const response = await request(checked.url, {
      method: 'POST',
      body,
      headers,
      dispatcher: agent,
      signal: AbortSignal.timeout(timeout),
    });
    // Only the status matters; read a little so the socket closes cleanly, never the whole body.
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return { ok, statusCode: response.statusCode, error: null, unsafe: false };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeNetworkError(error, timeout), unsafe: false };
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timed out after ${timeoutMs / 1000} s`;
  }
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message;
  return code ? `${code}: ${message}` : message;
}
