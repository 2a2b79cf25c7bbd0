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
  if (URL.canParse(url) && new URL(url).port === '0') throw new InvalidInput(`Invalid ${field}: port 0 cannot be reached`);
  try {
    await checkUrl(net, url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new InvalidInput(`Invalid ${field}: ${error.message}`);
    throw error;
  }
}
