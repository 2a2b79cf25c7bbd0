import { reloadConfig } from '../../../lambdas/platform/config';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAddress } from '../../../lambdas/platform/net/address-policy';
import { systemNet, type OutboundNet } from '../../../lambdas/platform/net/outbound';
import type { Resolver } from '../../../lambdas/platform/net/resolver';
import { checkUrl, UnsafeUrlError } from '../../../lambdas/platform/net/safe-url';
import { loopbackAllowed } from '../../../lambdas/platform/net/settings';
import { safePost } from '../../../lambdas/platform/net/safe-post';
import { assertSafeUrl } from '../../../lambdas/webhooks/url-safety';

// Given back in place, never by replacing process.env: in the shared test worker a replaced object
// leaves vitest's stubEnv deleting from the old one (a later file's stubbed variable would stay set).
const env = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  resolve = systemNet().resolve;
});

// The outbound port these checks get: the system's, with the test's resolver when one is set.
let resolve: Resolver = systemNet().resolve;
const net: OutboundNet = { ...systemNet(), resolve: (host) => resolve(host) };
const setResolver = (stub: Resolver) => {
  resolve = stub;
};

describe('checkAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', '100.127.255.255',
    '169.254.169.254', '169.254.1.1', '100.100.100.200', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.255', '255.255.255.255',
    '240.0.0.1', '192.0.2.1', '198.18.0.1', '198.51.100.1', '203.0.113.1',
    '::', '::1', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8',
    '::127.0.0.1', '::10.0.0.1', '64:ff9b::a00:1', '64:ff9b:1::1', '2002:a00:1::1', '2001::1', '100::1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(checkAddress(address).allowed).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001::1'])('allows public %s', (address) => {
    expect(checkAddress(address)).toEqual({ allowed: true });
  });

  it('allows loopback only when asked, and nothing else private', () => {
    expect(checkAddress('127.0.0.1', { allowLoopback: true }).allowed).toBe(true);
    expect(checkAddress('::1', { allowLoopback: true }).allowed).toBe(true);
    expect(checkAddress('10.0.0.1', { allowLoopback: true }).allowed).toBe(false);
    expect(checkAddress('::ffff:127.0.0.1', { allowLoopback: true }).allowed).toBe(false);
  });

  it('names the metadata addresses', () => {
    expect(checkAddress('169.254.169.254')).toEqual({ allowed: false, reason: '169.254.169.254 is a cloud metadata address' });
    expect(checkAddress('fd00:ec2:0::254')).toMatchObject({ reason: 'fd00:ec2::254 is a cloud metadata address' });
  });

  it('says what kind of address each refused one is, with its article', () => {
    expect(checkAddress('0.0.0.0')).toMatchObject({ reason: '0.0.0.0 is an unspecified address' });
    expect(checkAddress('::')).toMatchObject({ reason: ':: is an unspecified address' });
    expect(checkAddress('fc00::1')).toMatchObject({ reason: 'fc00::1 is a unique-local address' });
    expect(checkAddress('192.168.1.1')).toMatchObject({ reason: '192.168.1.1 is a private address' });
  });
});

describe('checkUrl', () => {
  const names: Record<string, string[]> = { 'public.example.test': ['93.184.216.34', '2606:4700::1'], 'half.example.test': ['93.184.216.34', '10.0.0.1'] };
  const stub = async (host: string) => {
    const found = names[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };

  it('pins the first address of a public name and keeps the host name', async () => {
    setResolver(stub);
    const checked = await checkUrl(net, 'https://public.example.test:8443/hooks?x=1');
    expect(checked).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(checked.url.host).toBe('public.example.test:8443');
  });

  it('refuses when any address of the name is private, or the name does not resolve', async () => {
    setResolver(stub);
    await expect(checkUrl(net, 'https://half.example.test/')).rejects.toThrow(/10\.0\.0\.1 is a private address/);
    await expect(checkUrl(net, 'https://nowhere.example.test/')).rejects.toThrow(/could not be resolved \(ENOTFOUND\)/);
  });

  it('normalizes numeric IPv4 spellings before checking them', async () => {
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://0177.0.0.1/', 'https://127.1/']) {
      await expect(checkUrl(net, url)).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    }
    await expect(checkUrl(net, 'https://[::ffff:127.0.0.1]/')).rejects.toThrow(/IPv4-mapped/);
    await expect(checkUrl(net, 'https://user@93.184.216.34/')).rejects.toThrow(/credentials/);
    await expect(checkUrl(net, 'https://a.test/' + 'x'.repeat(2048))).rejects.toThrow(UnsafeUrlError);
  });

  it('honours the loopback setting only with DEPLOYMENT=local, and plain http only to loopback', async () => {
    process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
    process.env.DEPLOYMENT = 'aws';
    reloadConfig();
    expect(loopbackAllowed()).toBe(false);
    await expect(checkUrl(net, 'http://127.0.0.1:9/')).rejects.toThrow(/https/);
    process.env.DEPLOYMENT = 'local';
    reloadConfig();
    expect(loopbackAllowed()).toBe(true);
    expect((await checkUrl(net, 'http://127.0.0.1:9/')).address).toBe('127.0.0.1');
    await expect(checkUrl(net, 'http://93.184.216.34/')).rejects.toThrow(/must use https/);
    process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
    reloadConfig();
    expect(loopbackAllowed()).toBe(false);
  });

  it('registration refuses a URL the parser would change (spaces, controls) and port 0, before resolving it', async () => {
    const asked: string[] = [];
    setResolver(async (host) => {
      asked.push(host);
      return ['93.184.216.34'];
    });
    for (const url of [' https://public.example.test/e8', 'https://public.example.test/e\t9\n ', 'https://public.example.test/a b', 'https://public.example.test/\u007f']) {
      await expect(assertSafeUrl(net, url), JSON.stringify(url)).rejects.toThrow('Invalid url: URL must not contain spaces or control characters (percent-encode them)');
    }
    for (const url of ['https://public.example.test:0/', 'https://public.example.test:000/x', 'https://[2606:4700:4700::1111]:0']) {
      await expect(assertSafeUrl(net, url), url).rejects.toThrow('Invalid url: port 0 cannot be reached');
    }
    expect(asked).toEqual([]);
    await expect(assertSafeUrl(net, 'https://public.example.test/a%20b')).resolves.toBeUndefined();
  });

  it('registration refuses a URL whose shown host or path is not where it is sent (a backslash, a dot segment), before resolving it', async () => {
    const asked: string[] = [];
    setResolver(async (host) => {
      asked.push(host);
      return ['93.184.216.34'];
    });
    // The WHATWG parser reads "\" as "/": this one is sent to evil.example.test, shown as if to hooks.acme.test.
    expect(new URL('https://evil.example.test\\@hooks.acme.test/in').hostname).toBe('evil.example.test');
    for (const url of ['https://evil.example.test\\@hooks.acme.test/in', 'https://public.example.test\\in', 'https://public.example.test/a\\b']) {
      await expect(assertSafeUrl(net, url), url).rejects.toThrow(/^Invalid url: URL must not contain a backslash/);
    }
    for (const [url, segment] of [
      ['https://public.example.test/ok/../x', '..'],
      ['https://public.example.test/ok/%2e%2e/x', '%2e%2e'],
      ['https://public.example.test/ok/.%2E/x', '.%2E'],
      ['https://public.example.test/./x', '.'],
      ['https://public.example.test/ok/%2e', '%2e'],
    ]) {
      expect(new URL(url!).pathname, url).not.toContain(segment);
      await expect(assertSafeUrl(net, url!), url).rejects.toThrow(`Invalid url: URL must not contain the path segment "${segment}"`);
    }
    expect(asked).toEqual([]);
    for (const url of ['https://public.example.test/a.b/..c/...', 'https://public.example.test/x?next=../y', 'https://public.example.test/x#../y', 'https://public.example.test']) {
      await expect(assertSafeUrl(net, url), url).resolves.toBeUndefined();
    }
  });

  it('safePost reports a refused URL without opening a connection', async () => {
    setResolver(stub);
    const outcome = await safePost(net, 'https://half.example.test/', '{}', {});
    expect(outcome).toEqual({ ok: false, statusCode: null, error: expect.stringMatching(/private/), unsafe: true });
  });
});
