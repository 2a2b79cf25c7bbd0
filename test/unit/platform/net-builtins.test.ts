import { describe, expect, it } from 'vitest';
import { isIP } from '../../../lambdas/platform/net/is-ip';
import { resolveHost, systemResolver } from '../../../lambdas/platform/net/resolver';

// The URL rules take node:net and node:dns/promises by getBuiltinModule (no ES import facade at a
// cold start): the answers are node's own.
describe('isIP', () => {
  it.each([
    ['8.8.8.8', 4], ['127.0.0.1', 4], ['::1', 6], ['2001:db8::1', 6], ['::ffff:127.0.0.1', 6],
    ['', 0], ['example.com', 0], ['[::1]', 0], ['1.2.3', 0], ['1.2.3.4 ', 0], ['256.1.1.1', 0], ['0x7f.1', 0], ['1.2.3.4\u0000', 0], ['::1%eth0/', 0],
  ])('isIP(%j) is %i', (input, family) => {
    expect(isIP(input)).toBe(family);
  });
});

describe('resolveHost', () => {
  it('answers an IP literal, bracketed or not, without resolving it', async () => {
    const refuse = () => Promise.reject(new Error('resolved'));
    await expect(resolveHost(refuse, '10.0.0.1')).resolves.toEqual(['10.0.0.1']);
    await expect(resolveHost(refuse, '[::1]')).resolves.toEqual(['::1']);
    await expect(resolveHost(refuse, 'example.test')).rejects.toThrow('resolved');
  });

  it('resolves a name with the system resolver (localhost, no network)', async () => {
    const addresses = await systemResolver('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(isIP(a)).not.toBe(0);
  });

  it('rejects a name that cannot resolve', async () => {
    await expect(systemResolver('no-such-host.invalid')).rejects.toThrow();
  });
});
