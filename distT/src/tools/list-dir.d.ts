import { type Tool } from '../core/tool.js';
/** Most entries one `list_dir` call returns; the rest are counted in `total_entries`. */
export declare const LIST_DIR_MAX_ENTRIES = 1000;
/** One child of a listed directory. */
export interface ListDirEntry {
    name: string;
    /**
     * A symlink is reported as such and never followed. `fifo` (a named pipe), `socket` and `device` (a
     * character or block device) are files no tool reads or writes: they could block or never end.
     */
    type: 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device';
    /** Size in bytes as `lstat` gives it (a symlink's own size, the length of its target path). */
    size: number;
}
/** Result of `list_dir`. */
export interface ListDirResult {
    /** The absolute workspace path listed (symlinks resolved). */
    dir_path: string;
    /** Immediate children, sorted by name in UTF-16 code-unit order, dot-files included. */
    entries: ListDirEntry[];
    /** True when the directory had more than {@link LIST_DIR_MAX_ENTRIES} entries and only the first ones are shown. */
    truncated: boolean;
    /** How many entries the directory has; only when `truncated`. */
    total_entries?: number;
    /** Entries listed but not shown because they could not be read (removed while listing, a path too long, unreadable); only when there were some. */
    skipped_entries?: number;
    note?: string;
}
/**
 * `list_dir` (as gemini-cli's `ls`): lists `{ dir_path }` and
 * returns {@link ListDirResult}: the immediate children sorted by UTF-16 code units (plain `<`, not
 * locale order), dot-files included, each `{ name, type, size }` from `lstat` (bytes; symlinks are not
 * followed; FIFOs, sockets and devices are typed `fifo`, `socket`, `device`; an entry that cannot be
 * `lstat`ed, such as one removed while listing, is left out and counted in `skipped_entries` with a `note`). On Node, a name that is not
 * UTF-8 is shown with `\xNN` escapes that every tool accepts back. At most {@link LIST_DIR_MAX_ENTRIES} entries, with `truncated` and `total_entries` beyond.
 *
 * Errors: `not_found`, `not_a_directory` (a file), `outside_workspace`, `execution_failed` (a symlink loop).
 */
export declare const listDirTool: Tool<{
    dir_path: string;
}, ListDirResult>;
