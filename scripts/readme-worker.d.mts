/** The README's worker example split into its worker and page sources. */
export function readmeWorkerExample(): { worker: string; page: string };
/**
 * Builds the README's worker example with Vite's default (iife) worker format; the worker bundle, its
 * modules and the names in assets/. `outDir`: build the app there and leave it (default: a temporary folder).
 */
export function buildReadmeWorker(options?: {
  files?: { worker: string; page: string };
  outDir?: string;
}): Promise<{ code: Buffer; gzipBytes: number; modules: Map<string, number>; assets: string[] }>;
