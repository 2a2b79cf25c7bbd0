import { isIP } from './is-ip';

/** Every address a host name resolves to (IPv4 and IPv6). */
export type Resolver = (hostname: string) => Promise<string[]>;

// node:dns/promises at the first lookup, not by import: a function holding the URL rules resolves
// a name only when it checks or posts to a URL (docs/performance.md, "Cold imports, fifth step").
export const systemResolver: Resolver = async (hostname) =>
  (await process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses to check for `host`: the literal itself when it is an IP, else one lookup. */
export async function resolveHost(resolve: Resolver, host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare)) return [bare];
  return resolve(bare);
}
