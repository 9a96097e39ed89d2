import { exposeToolRunner } from '../src/remote/remote.js';
/**
 * Serves ONE {@link ToolRunner} (so one platform, one live workspace, one writer) to every page that
 * connects to this SharedWorker (two tabs on one workspace see each other's writes and never
 * lose one). Call it at the top level of the shared worker module; each page connects with
 * `connectToolRunner(new SharedWorker(url, { type: 'module' }).port)`. The setup runs once, on the first
 * connection; its `onMessage` broadcasts `ctx.send` messages to every connected page (each carries its
 * `conversationId` and `callId` to filter on). Calls from all pages go through the one runner, so its
 * per-path write locks order their edits. `scope` defaults to the worker's global scope, read only when
 * this is called.
 */
export function exposeSharedToolRunner(setup, scope) {
    const target = scope ?? globalThis;
    const exposures = new Set();
    const broadcast = (message) => {
        for (const exposure of exposures) {
            try {
                exposure.relay(message);
            }
            catch {
                // a page that went away
            }
        }
    };
    let runner;
    const shared = () => (runner ??= Promise.resolve().then(() => setup({ onMessage: broadcast })));
    target.addEventListener('connect', (event) => {
        const port = event.ports[0];
        if (!port)
            return;
        const exposure = exposeToolRunner(() => shared(), port);
        exposures.add(exposure);
        // A tab that left gets no more broadcasts, and is no longer counted.
        void exposure.closed.then(() => {
            exposures.delete(exposure);
            port.close();
        });
    });
    return {
        get runner() {
            return shared();
        },
        get connections() {
            return exposures.size;
        },
    };
}
//# sourceMappingURL=shared.js.map