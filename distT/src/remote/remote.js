export { exposeToolRunner } from './expose.js';
export { connectToolRunner, REMOTE_GRACE_MS } from './connect.js';
//# sourceMappingURL=remote.js.map