import { config } from '../config';

// Outbound-request settings for customer-supplied URLs.

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Loopback receivers (and plain http to them) are a development convenience: honoured only when
 * WEBHOOKS_ALLOW_LOOPBACK=true AND DEPLOYMENT=local. The CDK stack sets DEPLOYMENT=aws on every
 * function and never sets the flag, so a deployed stack cannot carry it.
 */
export const loopbackAllowed = (): boolean => config().WEBHOOKS_ALLOW_LOOPBACK && config().DEPLOYMENT === 'local';
