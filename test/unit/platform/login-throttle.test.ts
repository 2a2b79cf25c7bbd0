import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../../local/login-throttle';

// The local console sign-in's throttle (local/login-throttle.ts), with the time given.

const limits = { perAccount: 3, perAddress: 5, windowMs: 60_000, maxKeys: 100 };

describe('login throttle', () => {
  it('refuses an account after its failures fill the window, until the oldest leaves it', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 3; i++) {
      expect(t.check('Owner@Example.test', '10.0.0.1', 1_000 * i)).toEqual({ allowed: true });
      t.failed('Owner@Example.test', '10.0.0.1', 1_000 * i);
    }
    // Any spelling of the same email, from any address.
    expect(t.check('owner@example.test ', '10.0.0.9', 3_000)).toEqual({ allowed: false, reason: 'account', retryAfterSeconds: 57 });
    expect(t.check('other@example.test', '10.0.0.9', 3_000)).toEqual({ allowed: true });
    expect(t.check('owner@example.test', '10.0.0.9', 60_001)).toEqual({ allowed: true });
  });

  it('refuses an address after its failures across accounts fill the window', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 5; i++) t.failed(`guess${i}@example.test`, '10.0.0.2', i);
    expect(t.check('new@example.test', '10.0.0.2', 10)).toMatchObject({ allowed: false, reason: 'address' });
    expect(t.check('new@example.test', '10.0.0.3', 10)).toEqual({ allowed: true });
  });

  it('a success clears its account but not its address', () => {
    const t = new LoginThrottle(limits);
    t.failed('a@example.test', '10.0.0.4', 0);
    t.failed('a@example.test', '10.0.0.4', 1);
    t.succeeded('A@example.test');
    t.failed('a@example.test', '10.0.0.4', 2);
    t.failed('a@example.test', '10.0.0.4', 3);
    expect(t.check('a@example.test', '10.0.0.4', 4)).toEqual({ allowed: true });
    t.failed('a@example.test', '10.0.0.4', 5);
    // Five failures from the address in all: the address bound holds although the account was cleared.
    expect(t.check('b@example.test', '10.0.0.4', 6)).toMatchObject({ allowed: false, reason: 'address' });
  });

  it('keeps at most maxKeys keys, forgetting the stalest', () => {
    const t = new LoginThrottle({ ...limits, maxKeys: 10 });
    for (let i = 0; i < 1_000; i++) t.failed(`u${i}@example.test`, `10.1.${i >> 8}.${i & 255}`, i);
    expect((t as unknown as { failures: Map<string, number[]> }).failures.size).toBe(10);
  });
});
