import ipaddr from 'ipaddr.js';

// Which IP addresses an outbound request to a customer-supplied URL may reach. The rule is an
// allow-list: an address passes only when ipaddr.js calls it ordinary unicast (IPv4) or global
// unicast inside 2000::/3 (IPv6). Everything else is refused, including forms that smuggle an IPv4
// address inside IPv6 (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and
// 64:ff9b:1::/48, 6to4, Teredo), because the embedded address may be private and the forms have
// no legitimate use for webhook receivers.

/** Cloud metadata services, named explicitly so the refusal says what it is. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export interface AddressPolicyOptions {
  /** Development only: also accept 127.0.0.0/8 and ::1. */
  allowLoopback?: boolean;
}

export function checkAddress(address: string, options: AddressPolicyOptions = {}): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return { allowed: false, reason: `'${address}' is not an IP address` };
  }
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return { allowed: false, reason: `${normalized} is a cloud metadata address` };

  const range = parsed.range();
  if (range === 'loopback' && options.allowLoopback) return { allowed: true };
  if (parsed.kind() === 'ipv4') {
    return range === 'unicast' ? { allowed: true } : { allowed: false, reason: `${normalized} is ${describe(range)} address` };
  }
  const v6 = parsed as ipaddr.IPv6;
  if (range !== 'unicast') {
    if (range === 'ipv4Mapped') return { allowed: false, reason: `${normalized} is an IPv4-mapped address (${v6.toIPv4Address().toString()})` };
    return { allowed: false, reason: `${normalized} is ${describe(range)} address` };
  }
  // ipaddr.js 2.5 calls IPv4-compatible ::a.b.c.d and other oddities "unicast"; only global
  // unicast space is a real internet host.
  if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, reason: `${normalized} is not a global unicast IPv6 address` };
  return { allowed: true };
}

/** The range's name with its article: 'a private', 'an unspecified'. */
function describe(range: string): string {
  const names: Record<string, string> = {
    private: 'private',
    loopback: 'loopback',
    linkLocal: 'link-local',
    carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
    multicast: 'multicast',
    broadcast: 'broadcast',
    unspecified: 'unspecified',
    reserved: 'reserved',
    uniqueLocal: 'unique-local',
    rfc6052: 'NAT64 (64:ff9b::/96)',
    rfc6145: 'IPv4-translated',
    '6to4': '6to4',
    teredo: 'Teredo',
    as112: 'AS112',
    amt: 'AMT',
    benchmarking: 'benchmarking',
    orchid2: 'ORCHIDv2',
    droneRemoteIdProtocolEntityTags: 'reserved',
  };
  const name = names[range] ?? `non-public (${range})`;
  // 'an' before a vowel sound: unspecified, IPv4-translated, AS112, AMT, ORCHIDv2; 'unique' is not one.
  return `${/^(?!uni)[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}
