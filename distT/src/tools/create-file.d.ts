import { type Tool } from '../core/tool.js';
/**
 * Largest old file, in bytes (32 MiB), whose BOM and line endings `create_file` keeps when it
 * overwrites it; a larger file is not read (its content is written as given), unless this
 * conversation recorded a fingerprint of that very size, when it is read to check it is unchanged.
 */
export declare const CREATE_MAX_STYLE_BYTES: number;
/** Result of `create_file`. */
export interface CreateFileResult {
    /** The absolute workspace path written (symlinks resolved). */
    file_path: string;
    /** Bytes written, including a kept BOM. */
    bytes_written: number;
    /** True when the file did not exist before. */
    created: boolean;
}
/**
 * `create_file`: writes `{ file_path, content, overwrite? = false }`
 * and returns {@link CreateFileResult}. Creates missing parent directories; writes atomically (temp file
 * + rename, so a failure leaves the old file whole); holds the path's write lock. When overwriting, keeps
 * the old file's BOM and CRLF/CR style (files up to {@link CREATE_MAX_STYLE_BYTES}), and refuses when the
 * file's bytes changed since this conversation last viewed or wrote it (size, then SHA-256, in the file
 * cache, not times; a file never viewed may be overwritten, and a larger one is then not read at all).
 * Records the size and SHA-256 of the bytes written.
 *
 * Errors: `already_exists` (exists, `overwrite` not set), `is_a_directory`, `stale_file`,
 * `outside_workspace`, `not_a_directory` (a parent is a file), `invalid_arguments` (empty path, trailing `/`, last component `.` or `..`,
 * content holding half of a surrogate pair, which UTF-8 cannot store),
 * `execution_failed` (a symlink loop), `quota_exceeded` (storage full).
 */
export declare const createFileTool: Tool<{
    file_path: string;
    content: string;
    overwrite?: boolean;
}, CreateFileResult>;
