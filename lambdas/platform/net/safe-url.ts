import { isIP } from './is-ip';
import { checkAddress } from './address-policy';
import type { OutboundNet } from './outbound';
import { resolveHost } from './resolver';
import { loopbackAllowed } from './settings';

/** A URL that may not be requested; the message says why, in words fit for a 400. */
export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export interface CheckedUrl {
  url: URL;
  /** The one address that was checked; the connection must go exactly there. */
  address: string;
  family: 4 | 6;
}

export const MAX_URL_LENGTH = 2048;

/**
 * Parses and checks a customer-supplied URL: https only, no credentials, and every address the
 * host resolves to must be public. Numeric spellings of IPv4 (decimal, hex, octal, short forms)
 * are normalized by the WHATWG URL parser before the check, so they meet the same rule.
 */
export async function checkUrl(net: Pick<OutboundNet, 'resolve'>, raw: string): Promise<CheckedUrl> {
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeUrlError(`URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('URL is not a valid absolute URL');
  }
  const allowLoopback = loopbackAllowed();
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) throw new UnsafeUrlError('URL must use https');
  // Credentials in a URL would be stored and echoed back in the endpoint; `user@127.0.0.1` is also
  // a classic way to disguise the real host.
  if (url.username || url.password) throw new UnsafeUrlError('URL must not contain credentials (user@host)');
  if (!url.hostname) throw new UnsafeUrlError('URL has no host');

  let addresses: string[];
  try {
    addresses = await resolveHost(net.resolve, url.hostname);
  } catch (error) {
    throw new UnsafeUrlError(`host ${url.hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`host ${url.hostname} has no addresses`);
  for (const address of addresses) {
    const verdict = checkAddress(address, { allowLoopback });
    if (!verdict.allowed) throw new UnsafeUrlError(`URL host must resolve to a public address: ${verdict.reason}`);
  }
  const address = addresses[0]!;
  // Plain http is allowed only to a loopback receiver under the development setting.
  if (url.protocol === 'http:' && checkAddress(address, {}).allowed) throw new UnsafeUrlError('URL must use https');
  return { url, address, family: isIP(address) === 6 ? 6 : 4 };
}
