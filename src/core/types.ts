// The core's data and port types, gathered under one import for the code above the core. Each has a
// file of its own: JSON values and schemas (json.ts), the filesystem port (fs-port.ts), the state
// store (state-store.ts), the search engine's requests and answers (search-engine.ts), the platform (platform.ts).
export type { JsonValue, JsonSchema } from './json.js';
export type * from './fs-port.js';
export type * from './state-store.js';
export type * from './search-engine.js';
export type * from './platform.js';
