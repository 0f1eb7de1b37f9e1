import { BlockList, isIP } from 'node:net';
import { type AddressClass, classifyAddress, embeddedIPv4 } from './address-class.ts';

/**
 * Whose URL a request follows, which decides the defaults (docs/operations.md "Security"):
 *
 * - `document`: a file's `url`, given by whoever creates runs: only public addresses.
 * - `workflow`: URLs a workflow author writes (EXTERNAL_DATA_VALIDATION, webhook endpoints):
 *   private networks are fine (an internal service), the engine's own host (loopback), link-local
 *   addresses and cloud metadata services are not.
 * - `provider`: a model provider's base URL, set by whoever runs the engine: a model served on
 *   the same host or network is normal; link-local addresses and metadata services are not.
 */
export type UrlPurpose = 'document' | 'workflow' | 'provider';

/** Overrides of a purpose's defaults; every field is optional. */
export interface UrlPolicyOptions {
  /** Allow the engine's own host (127.0.0.0/8, ::1, 0.0.0.0). Tests opt in with this. */
  readonly allowLoopback?: boolean;
  /** Allow private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). */
  readonly allowPrivate?: boolean;
  /** Allow link-local addresses (169.254/16, fe80::/10); metadata services stay refused unless listed in `allowHosts`. */
  readonly allowLinkLocal?: boolean;
  /**
   * Hosts allowed whatever their addresses: a name (`models.internal`), a suffix (`*.corp.example`),
   * an IP address or a CIDR range (`10.1.0.0/16`, matched against resolved addresses too).
   */
  readonly allowHosts?: readonly string[];
  /** Hosts refused always, in the same forms as `allowHosts`; a deny wins over an allow. */
  readonly denyHosts?: readonly string[];
  /** Redirects followed at most (each hop checked again); default 5. */
  readonly maxRedirects?: number;
}

/** A resolved policy: which address classes are refused, the lists, the redirect limit. */
export interface UrlPolicy {
  readonly purpose: UrlPurpose;
  readonly refused: ReadonlySet<AddressClass>;
  readonly allow: HostList;
  readonly deny: HostList;
  readonly maxRedirects: number;
}

/** Host names, suffixes and address ranges. */
export interface HostList {
  readonly names: ReadonlySet<string>;
  readonly suffixes: readonly string[];
  readonly addresses: BlockList;
  readonly empty: boolean;
}

const DEFAULT_REFUSED: Readonly<Record<UrlPurpose, readonly AddressClass[]>> = {
  document: ['loopback', 'unspecified', 'private', 'link-local', 'metadata', 'reserved'],
  workflow: ['loopback', 'unspecified', 'link-local', 'metadata', 'reserved'],
  provider: ['link-local', 'metadata', 'reserved'],
};

/** Allowed schemes: plain and TLS HTTP only (no `file:`, `data:`, `ftp:`, `gopher:` …). */
export const URL_SCHEMES: readonly string[] = ['http:', 'https:'];

function hostList(entries: readonly string[] | undefined, field: string): HostList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const addresses = new BlockList();
  for (const raw of entries ?? []) {
    const entry = raw.trim().toLowerCase();
    const [address, prefix] = entry.replace(/^\[|\]$/g, '').split('/') as [string, string?];
    const family = isIP(address);
    if (family !== 0) {
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) addresses.addAddress(address, type);
      else addresses.addSubnet(address, Number(prefix), type);
    } else if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else if (entry !== '' && !entry.includes('/')) names.add(entry);
    else
      throw new TypeError(
        `urlPolicy.${field}: "${raw}" is not a host name, *.suffix, address or CIDR range`,
      );
  }
  return { names, suffixes, addresses, empty: (entries ?? []).length === 0 };
}

/** The policy of a purpose: its defaults with `options` applied. */
export function urlPolicy(purpose: UrlPurpose, options: UrlPolicyOptions = {}): UrlPolicy {
  const refused = new Set<AddressClass>(DEFAULT_REFUSED[purpose]);
  if (options.allowLoopback === true) {
    refused.delete('loopback');
    refused.delete('unspecified');
  }
  if (options.allowPrivate === true) refused.delete('private');
  if (options.allowLinkLocal === true) refused.delete('link-local');
  const maxRedirects = options.maxRedirects ?? 5;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0) {
    throw new TypeError(
      `urlPolicy.maxRedirects must be a non-negative integer, got ${String(maxRedirects)}`,
    );
  }
  return {
    purpose,
    refused,
    allow: hostList(options.allowHosts, 'allowHosts'),
    deny: hostList(options.denyHosts, 'denyHosts'),
    maxRedirects,
  };
}

function listed(list: HostList, host: string, address: string | undefined): boolean {
  if (list.empty) return false;
  if (list.names.has(host) || list.suffixes.some((suffix) => host.endsWith(suffix))) return true;
  const ip = address ?? (isIP(host) !== 0 ? host : undefined);
  if (ip === undefined) return false;
  const v4 = isIP(ip) === 6 ? embeddedIPv4(ip) : undefined;
  return (
    list.addresses.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4') ||
    (v4 !== undefined && list.addresses.check(v4, 'ipv4'))
  );
}

const HINT: Readonly<Record<AddressClass, string>> = {
  public: '',
  private: ' (allow with urlPolicy.allowPrivate or allowHosts)',
  loopback: ' (allow with urlPolicy.allowLoopback)',
  unspecified: ' (allow with urlPolicy.allowLoopback)',
  'link-local': ' (allow with urlPolicy.allowLinkLocal or allowHosts)',
  metadata: ' (a cloud metadata service; only allowHosts can allow it)',
  reserved: ' (allow with allowHosts)',
};

/**
 * Why `policy` refuses to connect to `address` for `host`, or undefined if it may. Called with the
 * address actually connected to (after DNS), and for IP-literal hosts before any connection.
 */
export function addressRefusal(
  policy: UrlPolicy,
  host: string,
  address: string,
): string | undefined {
  const name = host.toLowerCase();
  if (listed(policy.deny, name, address)) return `${address} is on the deny list`;
  if (listed(policy.allow, name, address)) return undefined;
  const kind = classifyAddress(address);
  if (!policy.refused.has(kind)) return undefined;
  return `${address} is ${kind === 'unspecified' ? 'an' : 'a'} ${kind} address${HINT[kind]}`;
}

/** The outcome of {@link checkUrl}. */
export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks what can be checked of a URL before connecting: it parses, its scheme is http or https,
 * it carries no credentials (`user:pass@`), its host is not denied, and an IP-literal host (in any
 * of the forms WHATWG URL parsing normalises: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) is not
 * refused. Host names are checked again once resolved, by the connection itself.
 */
export function checkUrl(input: string | URL, policy: UrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (!URL_SCHEMES.includes(url.protocol)) {
    return {
      ok: false,
      reason: `uses ${url.protocol.replace(/:$/, '')}; only http and https are allowed`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'carries credentials (user:password@); send them in a header' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === '') return { ok: false, reason: 'has no host' };
  if (listed(policy.deny, host, undefined))
    return { ok: false, reason: `${host} is on the deny list` };
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(policy, host, host);
    if (refusal !== undefined) return { ok: false, reason: refusal };
  }
  return { ok: true, url };
}
