// The three ZenFS entry points toolhost uses, imported from their own modules rather than the package
// index: @zenfs/core declares no `sideEffects: false`, so importing its index pulls every backend,
// the node:fs compat layer and more into a browser bundle. Loaded by dynamic import on the first file
// operation.
export { resolveMountConfig } from '@zenfs/core/config.js';
export { bindContext } from '@zenfs/core/context.js';
export { InMemory } from '@zenfs/core/backends/memory.js';
