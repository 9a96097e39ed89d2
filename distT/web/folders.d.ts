/**
 * Makes `createWebPlatform` accept the options that need this entry's code: the folder backends
 * (`backend: { directory: handle }` for a folder from `showDirectoryPicker()` edited in place,
 * `'directory'` for the folder remembered for the workspace, `'opfs'`), `mounts` (folders, other
 * workspaces, ZenFS backends through `zenfsMount()` of `toolhost/web/zenfs`, any filesystem) and
 * `overlay: { base }` (a copy-on-write review layer with `changes()`, `apply()`, `discard()`), each as
 * documented on `WebPlatformOptions`. Without it, `createWebPlatform` throws a TypeError naming this
 * import for any of them. Call it once per worker (again is harmless).
 */
export declare function useFolders(): void;
