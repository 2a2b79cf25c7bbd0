import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Every address a host name resolves to (IPv4 and IPv6). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses to check for `host`: the literal itself when it is an IP, else one lookup. */
export async function resolveHost(resolve: Resolver, host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare)) return [bare];
  return resolve(bare);
}
