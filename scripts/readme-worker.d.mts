/** The README's worker example split into its worker and page sources. */
export function readmeWorkerExample(): { worker: string; page: string };
/** Builds the README's worker example with Vite's default (iife) worker format; the worker bundle and its modules. */
export function buildReadmeWorker(options?: { files?: { worker: string; page: string } }): Promise<{ code: Buffer; gzipBytes: number; modules: Map<string, number> }>;
