import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { checkAddressPolicy } from '../src/core/network.js';
import { ToolError } from '../src/core/errors.js';
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
export function createNodeNetwork(options: NodeNetworkOptions = {}): PlatformNetwork {
  const policy = options.policy ?? {};
  return {
    policy,
    redirects: 'manual',
    fetch: (url, init) => (options.fetch ?? globalThis.fetch)(url, init),
    async checkAddress(url: URL): Promise<void> {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) !== 0) {
        checkAddressPolicy(host, url.hostname, policy);
        return;
      }
      let addresses: { address: string }[];
      try {
        addresses = await lookup(host, { all: true, verbatim: true });
      } catch (error) {
        throw new ToolError('execution_failed', `could not resolve ${JSON.stringify(host)}: ${(error as { code?: string }).code ?? String(error)}; check the URL`);
      }
      for (const { address } of addresses) checkAddressPolicy(address, url.hostname, policy);
    },
  };
}
