import { InvalidInput } from '../platform/domain-errors';
import { checkUrl, UnsafeUrlError } from '../platform/net/safe-url';

/**
 * Registration-time check of a customer-supplied URL (webhook endpoints, per-contact callbacks):
 * throws a 400 saying what is wrong. Deliveries check again at send time.
 */
export async function assertSafeUrl(url: string): Promise<void> {
  try {
    await checkUrl(url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new InvalidInput(`Invalid url: ${error.message}`);
    throw error;
  }
}
