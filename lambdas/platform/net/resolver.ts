import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Every address a host name resolves to (IPv4 and IPv6). */
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

let current: Resolver = systemResolver;

/**
 * Test hook: replace name resolution (tests must never look up external names). Pass null to
 * restore the system resolver.
 */
export function setResolver(resolver: Resolver | null): void {
  current = resolver ?? systemResolver;
}

/** The addresses to check for `host`: the literal itself when it is an IP, else one lookup. */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare)) return [bare];
  return current(bare);
}
