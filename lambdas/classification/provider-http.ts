import { RateLimiter, RetryableError, withRetries } from './resilience';
import { ProviderConfigurationError } from './provider';
import { takeOnTime, type Limiter } from '../ratelimit/shared-limiter';

// One HTTP lookup with what every paid provider needs: a token from the limiter before each try, a
// timeout per try, retries with backoff for 429, 5xx and network errors (honouring Retry-After),
// and the answer sorted into a body, "no signal", a failure of this number, or a configuration
// error that stops the batch. Each adapter says what its provider's other statuses mean.

/** What every paid adapter is configured with besides its credentials. */
export interface PaidProviderSettings {
  baseUrl: string;
  concurrency: number;
  requestsPerSecond: number;
  timeoutMs: number;
  attempts: number;
  /** Paces every call; the account-wide table bucket in the service (an in-process one when absent). */
  limiter?: Limiter;
  /** The HTTP client (tests, a proxy); the global fetch when absent. */
  fetch?: typeof fetch;
}

export interface ProviderHttp {
  /** Names the provider in every message: 'Telnyx Number Lookup'. */
  label: string;
  /** What a configuration error asks the operator to check: 'check TELNYX_API_KEY'. */
  checkHint: string;
  fetch: typeof fetch;
  limiter: Limiter;
  timeoutMs: number;
  attempts: number;
}

/** The HTTP side of a paid adapter from its settings: the given fetch and limiter, or the defaults. */
export function providerHttp(label: string, checkHint: string, settings: PaidProviderSettings): ProviderHttp {
  return {
    label,
    checkHint,
    fetch: settings.fetch ?? globalThis.fetch,
    limiter: settings.limiter ?? new RateLimiter(settings.requestsPerSecond),
    timeoutMs: settings.timeoutMs,
    attempts: settings.attempts,
  };
}

/** What one non-2xx answer means, when the provider documents it otherwise than the default. */
export type Verdict =
  | { kind: 'retry'; retryAfterMs: number | null }
  | { kind: 'no-signal' }
  /** This number cannot be looked up (not retried): it is Unknown with the reason, and counts as failed. */
  | { kind: 'number-failed'; reason: string }
  /** Credentials, plan or quota: every number would fail the same way, so the batch stops. */
  | { kind: 'configuration'; reason: string };

export type LookupOutcome<T> = { kind: 'answer'; body: T } | { kind: 'no-signal' } | { kind: 'failed'; reason: string };

/** The longest Retry-After honoured: a longer one would hold the chunk; the next try says again. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After (seconds or an HTTP date), else the provider's own header of seconds; null when neither is usable. */
export function retryAfterMs(headers: Headers, secondsHeader?: string, now = Date.now()): number | null {
  const raw = headers.get('retry-after');
  let ms: number | null = null;
  if (raw !== null && raw.trim() !== '') {
    const seconds = Number(raw);
    ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - now;
  }
  if ((ms === null || !(ms > 0)) && secondsHeader) {
    const seconds = Number(headers.get(secondsHeader));
    if (Number.isFinite(seconds)) ms = seconds * 1000;
  }
  return ms !== null && Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : null;
}

function defaultVerdict(res: Response): Verdict {
  if (res.status === 429 || res.status >= 500) return { kind: 'retry', retryAfterMs: retryAfterMs(res.headers) };
  if (res.status === 404) return { kind: 'no-signal' };
  return { kind: 'configuration', reason: '' };
}

class NumberFailed extends Error {}
const NO_SIGNAL = Symbol('no-signal');

/**
 * GET `url` until it answers, at most `http.attempts` tries, each after a token from the limiter
 * (in `lane`'s turn: LookupOptions.lane). `special` sees every non-2xx answer
 * (and its body text) first; undefined leaves it to the default: 429 and 5xx retried, 404 no
 * signal, any other status a configuration error.
 */
export async function getJson<T>(http: ProviderHttp, url: URL, headers: Record<string, string>, special?: (res: Response, text: string) => Verdict | undefined, lane?: string): Promise<LookupOutcome<T>> {
  try {
    const body = await withRetries(
      async (): Promise<T | typeof NO_SIGNAL> => {
        await takeOnTime(http.limiter, lane);
        let res: Response;
        try {
          // Nothing awaited between the permit and the call: the call is made in its slot.
          res = await http.fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(http.timeoutMs) });
        } catch (error) {
          throw new RetryableError(`${http.label} unreachable: ${(error as Error).message}`);
        }
        if (res.ok) {
          let body: unknown;
          try {
            body = await res.json();
          } catch (error) {
            throw new RetryableError(`${http.label} answered ${res.status} without JSON: ${(error as Error).message}`);
          }
          if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new NumberFailed(`${http.label} answered ${res.status} with no JSON object`);
          return body as T;
        }
        const text = (await res.text().catch(() => '')).slice(0, 200);
        const verdict = special?.(res, text) ?? defaultVerdict(res);
        switch (verdict.kind) {
          case 'retry':
            throw new RetryableError(`${http.label} answered ${res.status}`, verdict.retryAfterMs);
          case 'no-signal':
            return NO_SIGNAL;
          case 'number-failed':
            throw new NumberFailed(`${http.label} answered ${res.status}: ${verdict.reason}`);
          case 'configuration':
            throw new ProviderConfigurationError(`${http.label} answered ${res.status}: ${http.checkHint}${verdict.reason ? ` (${verdict.reason})` : ''} (${text})`);
        }
      },
      { attempts: http.attempts, baseDelayMs: 250, maxDelayMs: 8000 },
    );
    return body === NO_SIGNAL ? { kind: 'no-signal' } : { kind: 'answer', body };
  } catch (error) {
    // Still 429/5xx/unreachable after every try, or refused for this number: the number is Unknown
    // with the reason, and the upload decides whether too many such numbers fail it.
    if (error instanceof RetryableError || error instanceof NumberFailed) return { kind: 'failed', reason: error.message };
    throw error;
  }
}
