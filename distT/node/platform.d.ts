import type { Platform, StateStore } from '../src/core/types.js';
import { type ConfinedNodeFsOptions } from './fs/confined.js';
import { type RunShellCommandOptions } from './run-command.js';
import { type DuckDuckGoSearchOptions } from './web-search.js';
import { type FileLocksOptions } from './file-lock.js';
import type { NetworkPolicy } from '../src/core/types.js';
export { createConfinedNodeFs, type ConfinedNodeFsOptions } from './fs/confined.js';
export { createPathCheckedNodeFs } from './fs/path-checked.js';
/**
 * Options of {@link createNodePlatform}; all optional. Each is checked at creation: a bad one (an
 * empty `root`, `confinement: 'bogus'`, a negative `command.killGraceMs`, ...) throws a TypeError naming
 * the option, the value and what is accepted.
 */
export interface NodePlatformOptions {
    /**
     * A real, existing directory to use as the workspace. Workspace paths then equal host paths
     * (`platform.root` is its realpath). Without it the workspace is in memory at `/workspace`; an empty
     * string is not "the current directory" but a TypeError.
     */
    root?: string;
    /** Directory for tool state files ({@link FileStateStore}); without it state lives in memory. */
    stateDir?: string;
    /**
     * A state store to use instead (e.g. `createRedisStateStore({ url })`, shared by many processes);
     * `capabilities.persistent` is then true. Giving both `state` and `stateDir` is a TypeError.
     */
    state?: StateStore;
    /** The DuckDuckGo search fallback (`createDuckDuckGoSearch`): results-page `baseUrl`, `timeoutMs` (default 10,000), `fetch`, `userAgent`. */
    webSearch?: DuckDuckGoSearchOptions;
    /**
     * Process options of `run_command`: `env` (variables added to the allow-listed environment),
     * `inheritEnv: true` (the host's whole environment), shell, kill grace in ms — for hosts and tests.
     */
    command?: RunShellCommandOptions;
    /** How `fs` confines itself to the root (`createConfinedNodeFs`); default: descriptors where Linux allows. */
    confinement?: ConfinedNodeFsOptions['mode'];
    /**
     * What `web_fetch` may reach: URL prefixes with their methods, and the loopback / private /
     * link-local addresses allowed (all refused by default), e.g. `{ allowAddresses: ['127.0.0.1'] }`.
     */
    network?: NetworkPolicy;
    /** The fetch `web_fetch` uses (default: Node's global fetch). */
    fetch?: typeof fetch;
    /**
     * Cross-process write locks on a real root (`platform.lockPath`, see `createFileLocks`): every
     * read-modify-write of a file (edit_file, create_file, the profiles' editors) holds a lock file in
     * the lock directory, so processes sharing the workspace never lose one another's edits. Default
     * on with the default lock directory; `{ dir, staleMs }` to choose; `false` for writers serialised
     * within this process only.
     */
    fileLocks?: boolean | FileLocksOptions;
}
/**
 * The Node platform.
 *
 * - `root` given: the workspace is that real directory (must exist: else a ToolError `not_found`, or
 *   `not_a_directory` for a file); `platform.root` is its realpath and workspace paths equal host paths.
 *   `fs` is {@link createConfinedNodeFs}: confined to the root on its own, race-free on Linux (`..`, absolute paths elsewhere
 *   and symlinks leading out → `outside_workspace`). `run_command` runs there ({@link runShellCommand}:
 *   `/bin/sh -c` in its own process group; every process it started, `setsid` ones included, ended when
 *   it exits, times out or is aborted; an allow-listed environment unless `command.inheritEnv`; streams
 *   capped at 15,000 characters each end); its `cwd` is checked to be really inside the root
 *   (`outside_workspace`). `backgroundCommands` runs `run_in_background` commands ({@link NodeBackgroundCommands}).
 * - no `root`: an in-memory workspace at `/workspace` (as `createMemoryPlatform`); commands are
 *   then unavailable (`capabilities.runCommand` false: a host shell cannot see in-memory files), so
 *   `run_command` returns its empty result with a note.
 * - `stateDir` given: state in {@link FileStateStore} (survives a restart, `capabilities.persistent`,
 *   shared safely by processes on one directory); a directory that cannot be written (a file in the
 *   way, no permission) throws a ToolError `unavailable` naming it;
 *   `state` given: that store (`capabilities.persistent` true); else in a MemoryStateStore.
 * - `webSearch`: the DuckDuckGo HTML scraper, `createDuckDuckGoSearch(options.webSearch)`, with or without
 *   a root (`capabilities.webSearch` true); it resolves `{ results, note?, error? }`.
 *
 * `dispose()` ends every process of commands still running (background ones too) and waits for them;
 * after it, every file call and command answers `unavailable` ("the platform was disposed; create a new
 * one").
 */
export declare function createNodePlatform(options?: NodePlatformOptions): Platform;
