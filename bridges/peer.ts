/**
 * Loading a bridge's framework (an optional peer dependency) on first use, with an error that says how
 * to install it, instead of Node's bare `ERR_MODULE_NOT_FOUND` when the bridge's entry is imported.
 */

/** What a bridge needs to say about its framework. */
export interface PeerPackage {
  /** The bridge's entry, as the user imports it: `'toolhost/ai-sdk'`. */
  entry: string;
  /** The package name: `'ai'`. */
  name: string;
  /** What it is, for the message: `'the Vercel AI SDK'`. */
  what: string;
  /** The version range to install: `'7'`. */
  version: string;
}

/** True when `error` says that the package `name` itself could not be found (not a module inside it failing). */
function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return false;
  const named = message.includes(`'${name}'`) || message.includes(`"${name}"`);
  return named && (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /failed to resolve module specifier|cannot find (package|module)/i.test(message));
}

/**
 * Runs `load` (the bridge's `import('<package>')`) and returns its module. When the package is not
 * installed, rejects with an Error (code `ERR_MODULE_NOT_FOUND`, the original as `cause`) naming the
 * entry, the package and the install command: `toolhost/ai-sdk needs the Vercel AI SDK (the package
 * "ai", version 7), an optional peer dependency of toolhost that is not installed here: run npm install
 * ai@7`. Any other failure is passed on unchanged. The module is loaded once; a failed load is retried.
 */
export function peerLoader<T>(peer: PeerPackage, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      if (!isMissing(error, peer.name)) throw error;
      const missing = new Error(
        `${peer.entry} needs ${peer.what} (the package "${peer.name}", version ${peer.version}), an optional peer dependency of toolhost that is not installed here: run npm install ${peer.name}@${peer.version}`,
        { cause: error },
      );
      (missing as Error & { code?: string }).code = 'ERR_MODULE_NOT_FOUND';
      throw missing;
    });
    return loading;
  };
}
