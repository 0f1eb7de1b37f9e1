import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * What an IP address reaches, for the URL policy. `metadata` is a cloud's instance-metadata
 * service (credentials live there); `unspecified` (0.0.0.0, ::) connects to the host itself on
 * Linux, so it is refused wherever loopback is.
 */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'reserved';

function list(ranges: readonly string[]): BlockList {
  const blocks = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/') as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) blocks.addAddress(address, type);
    else blocks.addSubnet(address, Number(prefix), type);
  }
  return blocks;
}

// Checked in this order: the first list that holds the address names its class.
const CLASSES: readonly (readonly [AddressClass, BlockList])[] = [
  [
    'metadata',
    list([
      '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
      '169.254.170.2', // AWS ECS task metadata
      '169.254.169.123', // AWS time sync
      '100.100.100.200', // Alibaba Cloud
      'fd00:ec2::254', // AWS over IPv6
      'fd00:ec2::23',
    ]),
  ],
  ['unspecified', list(['0.0.0.0/8', '::/128'])],
  ['loopback', list(['127.0.0.0/8', '::1/128'])],
  ['link-local', list(['169.254.0.0/16', 'fe80::/10'])],
  [
    'private',
    list([
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10', // carrier-grade NAT, often a provider's internal network
      '198.18.0.0/15', // benchmarking, used inside some clouds
      'fc00::/7', // unique local
    ]),
  ],
  [
    'reserved',
    list([
      '192.0.0.0/24',
      '192.0.2.0/24',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '224.0.0.0/4', // multicast
      '240.0.0.0/4', // reserved and broadcast
      '2001:db8::/32',
      'ff00::/8', // multicast
      '100::/64', // discard
    ]),
  ],
];

/** The 16 bytes of an IPv6 address (any textual form, an embedded dotted quad included). */
function ipv6Bytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad?.[1] !== undefined) {
    const parts = quad[1].split('.').map(Number);
    const hex = `${((parts[0] ?? 0) * 256 + (parts[1] ?? 0)).toString(16)}:${((parts[2] ?? 0) * 256 + (parts[3] ?? 0)).toString(16)}`;
    text = text.slice(0, quad.index) + hex;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16));
  const start = groups(head);
  const end = tail === undefined ? [] : groups(tail);
  const all = [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
  all.forEach((group, i) => {
    bytes[i * 2] = (group >> 8) & 0xff;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

function dotted(bytes: Uint8Array, at: number): string {
  return `${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}`;
}

/**
 * The IPv4 address an IPv6 address carries, if it carries one: IPv4-mapped (`::ffff:a.b.c.d`,
 * what a dual-stack socket sees), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and
 * 6to4 (`2002:AABB:CCDD::/48`). Each reaches the IPv4 host, so it is classified as that host.
 */
export function embeddedIPv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return dotted(b, 12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) return dotted(b, 12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) {
    return dotted(b, 12);
  }
  if (b[0] === 0x20 && b[1] === 0x02) return dotted(b, 2);
  return undefined;
}

/** Classifies an IP address (v4 or v6, as text); anything that is not an IP address is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  let ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  let type: 'ipv4' | 'ipv6';
  if (isIPv4(ip)) type = 'ipv4';
  else if (isIPv6(ip)) {
    const v4 = embeddedIPv4(ip);
    if (v4 !== undefined && v4 !== '0.0.0.0') {
      ip = v4;
      type = 'ipv4';
    } else type = 'ipv6';
  } else return 'reserved';
  for (const [name, blocks] of CLASSES) if (blocks.check(ip, type)) return name;
  return 'public';
}
