// POSIX path arithmetic on strings, with no filesystem: what the runner needs to check its cwd.

/** Splits a POSIX path into its non-empty components. */
export function splitPath(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/** Joins POSIX path parts and normalises `.` and `..` lexically (`..` never climbs above `/`). */
export function joinPath(...parts: string[]): string {
  const out: string[] = [];
  for (const part of splitPath(parts.join('/'))) {
    if (part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/**
 * `path` as an absolute normal path: empty parts and `.` dropped, `..` applied lexically (never above
 * `/`), a relative path read from `/`. A value that is not a string is read as its string form.
 */
export function normalizePath(path: string): string {
  return joinPath(String(path));
}

/** True when `path` is `root` or lies under it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  if (root === '/') return path.startsWith('/');
  return path === root || path.startsWith(root + '/');
}
