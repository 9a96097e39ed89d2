import type { NetworkPolicy, PlatformNetwork } from './types.js';
/**
 * Which refused range an IP address (v4 or v6 text) lies in — `loopback`, `private`, `link-local`,
 * `shared (CGNAT)`, `unspecified`, `multicast` — or null for a public address or a non-address.
 * IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
export declare function refusedAddressRange(address: string): string | null;
/** Whether `entry` can be an `allowAddresses` item: an IPv4 or IPv6 address, or an IPv4 CIDR range such as `127.0.0.0/8`. */
export declare function isAddressEntry(entry: unknown): boolean;
/**
 * Refuses `address` (the IP a URL's host is or resolves to) when it lies in a refused range and the
 * policy does not list it. Errors: `permission_denied` naming the range and how to allow it.
 */
export declare function checkAddressPolicy(address: string, host: string, policy: NetworkPolicy): void;
/**
 * Checks a URL and method against a {@link NetworkPolicy} before anything is sent: only http(s); with
 * an `allow` list, the URL must start with a rule's prefix and the method be one of its methods; a host
 * that is an IP literal is checked with {@link checkAddressPolicy}. Errors: `invalid_arguments` for a
 * URL that does not parse or is not http(s); `permission_denied` naming the rule (or its absence).
 */
export declare function checkUrlPolicy(url: URL, method: string, policy: NetworkPolicy): void;
/**
 * A {@link PlatformNetwork} over a `fetch` function (default `globalThis.fetch` at call time): for the
 * browser (`redirects: 'follow'`: the page's fetch under its CORS rules) and for hosts that bring
 * their own fetch. Addresses are checked only where the host is an IP literal or `localhost`.
 */
export declare function createFetchNetwork(options?: {
    policy?: NetworkPolicy;
    fetch?: typeof fetch;
    redirects?: 'manual' | 'follow';
}): PlatformNetwork;
