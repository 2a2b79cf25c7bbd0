import { config } from '../config';

// Outbound-request settings for customer-supplied URLs, read at call time so tests can change them.

export const DEFAULT_TIMEOUT_MS = 10_000;

let timeoutOverride: number | null = null;

/** Test hook: a shorter per-attempt timeout so a hanging receiver does not cost 10 s. */
export function setRequestTimeoutMs(ms: number | null): void {
  timeoutOverride = ms;
}

export const requestTimeoutMs = (): number => timeoutOverride ?? DEFAULT_TIMEOUT_MS;

/**
 * Loopback receivers (and plain http to them) are a development convenience: honoured only when
 * WEBHOOKS_ALLOW_LOOPBACK=true AND DEPLOYMENT=local. The CDK stack sets DEPLOYMENT=aws on every
 * function and never sets the flag, so a deployed stack cannot carry it.
 */
export const loopbackAllowed = (): boolean => config().WEBHOOKS_ALLOW_LOOPBACK && config().DEPLOYMENT === 'local';

let trustedCa: string | null = null;

/**
 * Test hook: trust this CA (PEM) in addition to the system's, so a loopback HTTPS receiver with a
 * test certificate can prove that TLS uses the real host name. Never set outside tests.
 */
export function setTrustedCaForTests(pem: string | null): void {
  trustedCa = pem;
}

export const extraTrustedCa = (): string | null => trustedCa;
