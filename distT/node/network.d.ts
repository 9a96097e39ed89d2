import type { NetworkPolicy, PlatformNetwork } from '../src/core/types.js';
/** Options of {@link createNodeNetwork}. */
export interface NodeNetworkOptions {
    /** URL prefixes and methods allowed, and the private addresses allowed (default: any public http(s) URL, GET/HEAD). */
    policy?: NetworkPolicy;
    /** The fetch to use (default: Node's global fetch). */
    fetch?: typeof fetch;
}
/**
 * The Node platform's network for `web_fetch`: Node's fetch with redirects handed to the tool (each
 * hop checked), and before each request the host resolved with `dns.lookup` (every address it
 * resolves to) and refused when one lies on loopback, private, link-local, CGNAT or unspecified
 * ranges that the policy's `allowAddresses` does not list. The name is resolved again by fetch
 * itself, so a DNS answer that changes between the two lookups is not covered.
 */
export declare function createNodeNetwork(options?: NodeNetworkOptions): PlatformNetwork;
