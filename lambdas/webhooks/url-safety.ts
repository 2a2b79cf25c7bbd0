import { InvalidInput } from '../platform/domain-errors';
import { checkUrl, UnsafeUrlError } from '../platform/net/safe-url';
import type { OutboundNet } from '../platform/net/outbound';

/**
 * Registration-time check of a customer-supplied URL (webhook endpoints, per-contact callbacks):
 * throws a 400 saying what is wrong, naming the field it came in (`url`, `callback_url`).
 * Deliveries check again at send time.
 */
export async function assertSafeUrl(net: OutboundNet, url: string, field = 'url'): Promise<void> {
  // A URL parser drops leading and trailing spaces and controls and removes tabs and line breaks
  // inside, so the URL pinged would not be the one stored and shown back; ask for the URL itself.
  if (/[\u0000-\u0020\u007f]/.test(url)) throw new InvalidInput(`Invalid ${field}: URL must not contain spaces or control characters (percent-encode them)`);
  const disguise = requestedElsewhere(url);
  if (disguise) throw new InvalidInput(`Invalid ${field}: URL must not contain ${disguise}`);
  if (URL.canParse(url) && new URL(url).port === '0') throw new InvalidInput(`Invalid ${field}: port 0 cannot be reached`);
  try {
    await checkUrl(net, url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new InvalidInput(`Invalid ${field}: ${error.message}`);
    throw error;
  }
}

/**
 * What in a URL the parser turns into another request than the one written, so that the URL
 * stored and shown back would not say where deliveries go: a backslash (read as `/`: a URL written
 * `https://evil.example\@hooks.acme.com/` is sent to evil.example) and a dot segment (`.` or `..`,
 * also percent-encoded: the parser removes it, `..` with the segment before it). Null when none.
 */
export function requestedElsewhere(url: string): string | null {
  if (url.includes('\\')) return 'a backslash (it is read as "/", so the URL requested would not be the one shown)';
  // The path: after the scheme and authority, before any query or fragment.
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url)?.[1] ?? '';
  const dotSegment = path.split('/').find((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
  if (dotSegment !== undefined) return `the path segment "${dotSegment}" (it is removed from the path, so the URL requested would not be the one shown)`;
  return null;
}
