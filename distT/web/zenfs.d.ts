import type { WebMountSource } from './platform.js';
/** A ZenFS mount configuration: `{ backend, ...its options }`. */
export type ZenfsMountConfig = {
    backend: unknown;
    [option: string]: unknown;
};
/** Options of {@link zenfsMount}. */
export interface ZenfsMountOptions {
    /** Refuse every write with `permission_denied` (default: true for `Zip` and `Iso`, else as the backend allows). */
    readOnly?: boolean;
    /** How messages name the mount (default: its path in the workspace). */
    label?: string;
}
/**
 * Wraps a ZenFS mount configuration (`{ backend: Zip, data }`, `{ backend: Fetch, index, baseUrl }`, ...)
 * (or a function resolving to one, e.g. after fetching the archive) as a {@link WebMountSource} for
 * `createWebPlatform({ mounts })` or `overlay.base` (both need `useFolders()` of `toolhost/web/folders`). The backend is resolved on the workspace's first use; a write the backend refuses (`EROFS`, a zip) answers
 * `permission_denied` saying the mount is read-only.
 */
export declare function zenfsMount(config: ZenfsMountConfig | (() => Promise<ZenfsMountConfig>), options?: ZenfsMountOptions): WebMountSource;
