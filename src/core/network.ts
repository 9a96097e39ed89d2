import { ToolError } from './errors.js';
import type { NetworkPolicy, NetworkRule, PlatformNetwork } from './platform.js';
import { quoteForMessage } from './message-text.js';

/** Methods a rule allows when it names none. */
const DEFAULT_METHODS: readonly string[] = ['GET', 'HEAD'];

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

/** 16 bytes of an IPv6 address (with an embedded IPv4 tail), or null. */
function parseIPv6(text: string): number[] | null {
  let body = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!body.includes(':')) return null;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const v4 = parseIPv4(body.slice(lastColon + 1));
  if (v4) {
    tail = v4;
    body = body.slice(0, lastColon) + ':0:0';
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const rest = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !rest) return null;
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...rest];
  const bytes = all.flatMap((g) => [g >> 8, g & 255]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(ip: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < 4; i += 1) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
    if (((ip[i] as number) & mask) !== ((base[i] as number) & mask)) return false;
  }
  return true;
}

/**
 * Which refused range an IP address (v4 or v6 text) lies in — `loopback`, `private`, `link-local`,
 * `shared (CGNAT)`, `unspecified`, `multicast` — or null for a public address or a non-address.
 * IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
export function refusedAddressRange(address: string): string | null {
  let v4 = parseIPv4(address);
  const v6 = v4 ? null : parseIPv6(address);
  if (v6 && v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) v4 = v6.slice(12);
  if (v4) {
    if (inV4(v4, [127, 0, 0, 0], 8)) return 'loopback';
    if (inV4(v4, [10, 0, 0, 0], 8) || inV4(v4, [172, 16, 0, 0], 12) || inV4(v4, [192, 168, 0, 0], 16)) return 'private';
    if (inV4(v4, [169, 254, 0, 0], 16)) return 'link-local';
    if (inV4(v4, [100, 64, 0, 0], 10)) return 'shared (CGNAT)';
    if (inV4(v4, [0, 0, 0, 0], 8)) return 'unspecified';
    if (inV4(v4, [224, 0, 0, 0], 4)) return 'multicast';
    return null;
  }
  if (!v6) return null;
  if (v6.every((b, i) => (i === 15 ? b === 1 : b === 0))) return 'loopback';
  if (v6.every((b) => b === 0)) return 'unspecified';
  if (((v6[0] as number) & 0xfe) === 0xfc) return 'private';
  if (v6[0] === 0xfe && ((v6[1] as number) & 0xc0) === 0x80) return 'link-local';
  if (v6[0] === 0xff) return 'multicast';
  return null;
}

/** Whether `entry` can be an `allowAddresses` item: an IPv4 or IPv6 address, or an IPv4 CIDR range such as `127.0.0.0/8`. */
export function isAddressEntry(entry: unknown): boolean {
  if (typeof entry !== 'string') return false;
  const [base, bits, extra] = entry.split('/');
  if (extra !== undefined) return false;
  if (bits === undefined) {
    const plain = (base as string).replace(/^\[|\]$/g, '');
    return parseIPv4(plain) !== null || parseIPv6(plain) !== null;
  }
  return parseIPv4(base as string) !== null && /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
}

/** Whether `a` and `b` are one IP address however written (`::1`, `0:0:0:0:0:0:0:1`; case aside). */
function sameAddress(a: string, b: string): boolean {
  const parsed = [parseIPv4(a), parseIPv4(b)];
  if (!parsed[0] || !parsed[1]) [parsed[0], parsed[1]] = [parseIPv6(a), parseIPv6(b)];
  const [x, y] = parsed;
  if (!x || !y) return a.toLowerCase() === b.toLowerCase();
  return x.length === y.length && x.every((part, i) => part === y[i]);
}

/** True when `address` is listed in `allowAddresses` (an exact IP, or an IPv4 CIDR such as `127.0.0.0/8`). */
function addressAllowed(address: string, allow: readonly string[] | undefined): boolean {
  if (!allow) return false;
  const plain = address.replace(/^\[|\]$/g, '').toLowerCase();
  const ip4 = parseIPv4(plain);
  for (const entry of allow) {
    const [base, bitsText] = entry.split('/');
    if (bitsText === undefined) {
      if (sameAddress((base as string).replace(/^\[|\]$/g, ''), plain)) return true;
      continue;
    }
    const baseIp = parseIPv4(base as string);
    if (ip4 && baseIp && inV4(ip4, baseIp, Number(bitsText))) return true;
  }
  return false;
}

/**
 * Refuses `address` (the IP a URL's host is or resolves to) when it lies in a refused range and the
 * policy does not list it. Errors: `permission_denied` naming the range and how to allow it.
 */
export function checkAddressPolicy(address: string, host: string, policy: NetworkPolicy): void {
  const range = refusedAddressRange(address);
  if (range === null || addressAllowed(address, policy.allowAddresses)) return;
  throw new ToolError(
    'permission_denied',
    `the network policy refuses ${quoteForMessage(host)}: it is a ${range} address (${address}), and only addresses the host allows may be ` +
      'fetched from that range (allowAddresses of its network policy; the toolhost command\'s --allow-address); fetch a public URL instead',
  );
}

function ruleOf(entry: string | NetworkRule): NetworkRule {
  return typeof entry === 'string' ? { prefix: entry } : entry;
}

/**
 * Checks a URL and method against a {@link NetworkPolicy} before anything is sent: only http(s); with
 * an `allow` list, the URL must start with a rule's prefix and the method be one of its methods; a host
 * that is an IP literal is checked with {@link checkAddressPolicy}. Errors: `invalid_arguments` for a
 * URL that does not parse or is not http(s); `permission_denied` naming the rule (or its absence).
 */
export function checkUrlPolicy(url: URL, method: string, policy: NetworkPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('invalid_arguments', `${quoteForMessage(url.href)} is not an http or https URL; only those can be fetched`);
  }
  if (policy.allow !== undefined) {
    const rules = policy.allow.map(ruleOf);
    const matching = rules.filter((rule) => url.href.startsWith(rule.prefix));
    if (matching.length === 0) {
      throw new ToolError(
        'permission_denied',
        `the network policy refuses ${quoteForMessage(url.href)}: it is under none of the allowed URL prefixes (${rules.map((r) => JSON.stringify(r.prefix)).join(', ') || 'none'})`,
      );
    }
    if (!matching.some((rule) => (rule.methods ?? DEFAULT_METHODS).includes(method))) {
      const rule = matching[0] as NetworkRule;
      throw new ToolError(
        'permission_denied',
        `the network policy refuses ${method} ${quoteForMessage(url.href)}: the rule for prefix ${JSON.stringify(rule.prefix)} allows only ${(rule.methods ?? DEFAULT_METHODS).join(', ')}`,
      );
    }
  }
  const host = url.hostname;
  if (parseIPv4(host) || host.startsWith('[')) checkAddressPolicy(host.replace(/^\[|\]$/g, ''), host, policy);
  else if (host === 'localhost' || host.endsWith('.localhost')) checkAddressPolicy('127.0.0.1', host, policy);
}

/**
 * A {@link PlatformNetwork} over a `fetch` function (default `globalThis.fetch` at call time): for the
 * browser (`redirects: 'follow'`: the page's fetch under its CORS rules) and for hosts that bring
 * their own fetch. Addresses are checked only where the host is an IP literal or `localhost`.
 */
export function createFetchNetwork(options: { policy?: NetworkPolicy; fetch?: typeof fetch; redirects?: 'manual' | 'follow' } = {}): PlatformNetwork {
  return {
    policy: options.policy ?? {},
    redirects: options.redirects ?? 'follow',
    fetch: (url, init) => (options.fetch ?? globalThis.fetch)(url, init),
  };
}
