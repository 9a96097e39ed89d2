import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { checkAddressPolicy } from '../src/core/network.js';
import { ToolError } from '../src/core/errors.js';
/**
 * The Node platform's network for `web_fetch`: Node's fetch with redirects handed to the tool (each
 * hop checked), and before each request the host resolved with `dns.lookup` (every address it
 * resolves to) and refused when one lies on loopback, private, link-local, CGNAT or unspecified
 * ranges that the policy's `allowAddresses` does not list. The name is resolved again by fetch
 * itself, so a DNS answer that changes between the two lookups is not covered.
 */
export function createNodeNetwork(options = {}) {
    const policy = options.policy ?? {};
    return {
        policy,
        redirects: 'manual',
        fetch: (url, init) => (options.fetch ?? globalThis.fetch)(url, init),
        async checkAddress(url) {
            const host = url.hostname.replace(/^\[|\]$/g, '');
            if (isIP(host) !== 0) {
                checkAddressPolicy(host, url.hostname, policy);
                return;
            }
            let addresses;
            try {
                addresses = await lookup(host, { all: true, verbatim: true });
            }
            catch (error) {
                throw new ToolError('execution_failed', `could not resolve ${JSON.stringify(host)}: ${error.code ?? String(error)}; check the URL`);
            }
            for (const { address } of addresses)
                checkAddressPolicy(address, url.hostname, policy);
        },
    };
}
//# sourceMappingURL=network.js.map