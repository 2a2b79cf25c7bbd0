// Failed sign-ins on the local console's identity provider, counted per account (the email typed,
// known or not, so the answer never tells which accounts exist) and per client address, in a
// sliding window. Past the bound, every attempt on that account or from that address is refused,
// a right password included, until the oldest failure leaves the window: guessing a password
// costs the window per few guesses, not a request each. A successful sign-in clears its account's
// failures (the address's stay: one address trying many accounts is what that bound is for).

export interface LoginThrottleLimits {
  /** Failures allowed per account within the window. */
  perAccount: number;
  /** Failures allowed per client address within the window. */
  perAddress: number;
  windowMs: number;
  /** Keys tracked at most (the oldest are forgotten first): memory stays bounded whatever is sent. */
  maxKeys: number;
}

export const LOGIN_THROTTLE_LIMITS: LoginThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000, maxKeys: 10_000 };

export type LoginVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; reason: 'account' | 'address' };

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: LoginThrottleLimits = LOGIN_THROTTLE_LIMITS) {}

  /** Whether an attempt on `account` from `address` may be checked at all, at `now` (epoch ms). */
  check(account: string, address: string, now: number): LoginVerdict {
    const byAccount = this.recent(accountKey(account), now);
    if (byAccount.length >= this.limits.perAccount) return this.refuse('account', byAccount, this.limits.perAccount, now);
    const byAddress = this.recent(addressKey(address), now);
    if (byAddress.length >= this.limits.perAddress) return this.refuse('address', byAddress, this.limits.perAddress, now);
    return { allowed: true };
  }

  failed(account: string, address: string, now: number): void {
    for (const key of [accountKey(account), addressKey(address)]) {
      const times = this.recent(key, now);
      times.push(now);
      // Re-inserted, so the map's order is by last failure and eviction drops the stalest.
      this.failures.delete(key);
      this.failures.set(key, times);
    }
    while (this.failures.size > this.limits.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  succeeded(account: string): void {
    this.failures.delete(accountKey(account));
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - this.limits.windowMs);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  private refuse(reason: 'account' | 'address', times: number[], limit: number, now: number): LoginVerdict {
    // Allowed again once enough failures have left the window to fall under the limit.
    const freedAt = times[times.length - limit]! + this.limits.windowMs;
    return { allowed: false, reason, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
  }
}

const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
