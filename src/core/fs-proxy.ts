// A view of an fs port whose chosen methods are wrapped: the one mechanism behind the call context's
// cancellation guard and the change journal's recording view.
import type { FsPromises } from './fs-port.js';

/** One of the port's methods, as the view receives it (bound to nothing). */
export type FsMethod = (...args: unknown[]) => unknown;

/**
 * A `Proxy` over `fs` in which every method named by `wrap` is replaced: `wrap(name, method, target)`
 * answers the replacement, or `undefined` to pass the method through bound to `fs`. Each method is
 * wrapped once (the view caches it), non-function members are read through, and `fs` is never changed.
 */
export function wrapFsMethods(fs: FsPromises, wrap: (name: string, method: FsMethod, target: FsPromises) => FsMethod | undefined): FsPromises {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(fs, {
    get(target, property) {
      if (cache.has(property)) return cache.get(property);
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as FsMethod;
      const wrapped = (typeof property === 'string' ? wrap(property, method, target) : undefined) ?? method.bind(target);
      cache.set(property, wrapped);
      return wrapped;
    },
  });
}
