import { InvalidInput } from '../platform/domain-errors';
import { checkUrl, UnsafeUrlError } from '../platform/net/safe-url';
import type { OutboundNet } from '../platform/net/outbound';

/**
 * Registration-time check of a customer-supplied URL (webhook endpoints, per-contact callbacks):
 * throws a 400 saying what is wrong. Deliveries check again at send time.
 */
export async function assertSafeUrl(net: OutboundNet, url: string): Promise<void> {
  try {
    await checkUrl(net, url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new InvalidInput(`Invalid url: ${error.message}`);
    throw error;
  }
}
