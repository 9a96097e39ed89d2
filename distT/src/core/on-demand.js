import { ToolError } from './errors.js';
/**
 * A library loaded on first use through `load` (one of the package's `#lazy` loaders: in browsers a
 * file beside toolhost's code, `lazy/<file>`, fetched by URL; on Node a dynamic import). `what` names
 * it in the `unavailable` message, which says that the app must serve that file (a bundler that
 * copied the code without it breaks the load).
 */
export function onDemand(what, file, load) {
    let value;
    let loading;
    return {
        loaded: () => value,
        load() {
            if (value !== undefined)
                return Promise.resolve(value);
            loading ??= new Promise((resolve) => resolve(load())).then((module) => {
                value = module;
                return module;
            }, (error) => {
                loading = undefined;
                const message = error?.message;
                throw new ToolError('unavailable', `${what} could not be loaded: ${String(message ?? error)}; the app must serve toolhost's lazy/${file} beside the code that loads it`);
            });
            return loading;
        },
    };
}
//# sourceMappingURL=on-demand.js.map