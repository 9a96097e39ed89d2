// The budgets a workspace's search index keeps to: its size (as saved), and the memory its build
// takes. A build counts both as it goes and stops at the first file that passes one (what it counted
// is a lower bound of the whole), a finished build and a saved index are measured by their saved size,
// and an index that grows past its size through updates is dropped; the workspace then scans, as
// without an index, and its capabilities say which budget was passed.

import { describeValue } from '../../core/options.js';

/**
 * Default bound on an index's size (its saved bytes, about what it holds in memory): 256 MiB.
 * An index takes about 8% of the text it indexes (a 109 MiB tree of 5,700 files gives 8.7 MiB) plus
 * about 40 bytes and the path per file, so a 1 GB tree of 100,000 files needs about 100 MiB: this
 * admits it with room to spare, and trees up to about 3 GB of text.
 */
export const DEFAULT_MAX_INDEX_BYTES = 256 * 1024 * 1024;

/**
 * Default bound on a build's memory as estimated while it runs: 448 MiB. Counted: the posting lists
 * under construction (their arena's whole capacity), the copy they are frozen into, the key tables,
 * the paths and identities, and the bytes of the files being read at once. A 1 GB tree of 100,000
 * files estimates at about 200-400 MiB (the arena grows by doubling); with the runtime's own ~100 MB
 * a build under this bound stays within about 600 MB of resident memory.
 */
export const DEFAULT_MAX_BUILD_BYTES = 448 * 1024 * 1024;

/**
 * The bounds of one workspace's index (see {@link DEFAULT_MAX_INDEX_BYTES}, {@link DEFAULT_MAX_BUILD_BYTES}),
 * and what the host's users call them where they set them (see {@link BudgetNames}; absent: the
 * platform options `searchIndex.maxIndexBytes` / `searchIndex.maxBuildBytes`).
 */
export interface SearchIndexBudget {
  maxIndexBytes: number;
  maxBuildBytes: number;
  names?: BudgetNames;
}

/** Which bound was passed: the option that raises it. */
export type BudgetName = 'maxIndexBytes' | 'maxBuildBytes';

/**
 * What a host's users call the two bounds where they set them, such as a command line's flags
 * (`{ maxIndexBytes: '--search-index-max-bytes', maxBuildBytes: '--search-index-max-build-bytes' }`):
 * the note of a budget passed then names that setting and the bytes to give it, instead of the
 * platform option.
 */
export type BudgetNames = Readonly<Record<BudgetName, string>>;

/** The default budget. */
export function defaultBudget(): SearchIndexBudget {
  return { maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, maxBuildBytes: DEFAULT_MAX_BUILD_BYTES };
}

/**
 * The budget of `option` (`searchIndex` as the host gave it: `true` or an object with optional
 * `maxIndexBytes` / `maxBuildBytes`), defaults for what it leaves out. A value that is not a finite
 * number above zero is the host's mistake: a TypeError naming the option (`who`: the factory; `path`:
 * what the bound is reached by in its call, `searchIndex.` for a platform option). `names`: what the
 * host's users call the bounds (see {@link BudgetNames}), for the note of a budget passed.
 */
export function budgetOf(option: unknown, who: string, path = 'searchIndex.', names?: BudgetNames): SearchIndexBudget {
  const budget: SearchIndexBudget = { ...defaultBudget(), ...(names ? { names: { maxIndexBytes: names.maxIndexBytes, maxBuildBytes: names.maxBuildBytes } } : {}) };
  if (typeof option !== 'object' || option === null) return budget;
  for (const name of ['maxIndexBytes', 'maxBuildBytes'] as const) {
    const value = (option as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`${who}: ${path}${name} must be a number of bytes above 0 (such as ${name === 'maxIndexBytes' ? DEFAULT_MAX_INDEX_BYTES : DEFAULT_MAX_BUILD_BYTES}, the default), not ${describeValue(value)}`);
    }
    budget[name] = value;
  }
  return budget;
}

/** Bytes as people read them: `512 B`, `3.4 KiB`, `12.0 MiB`, `1.20 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** What a build, a saved index or an update found when it passed a budget. */
export interface BudgetPassed {
  budget: BudgetName;
  limit: number;
  /** Bytes counted when it stopped (a lower bound of the whole when `done` < `total`). */
  reached: number;
  /** Files indexed when it stopped, and of how many (undefined: an update or a saved index, not a build). */
  done?: number;
  total?: number;
  /**
   * The builder's estimate of what the whole build needs (never below `reached`), given only when it
   * had done enough of its files to tell ({@link ENOUGH_DONE}); absent, the note states only the
   * lower bound it knows.
   */
  projected?: number;
  /** The index measured is the saved one, as read (not a build's nor an update's). */
  saved?: boolean;
}

/**
 * The share of its files a build must have done before its stop projects the whole (a quarter): a
 * build stopped earlier has counted mostly its one-time allocations, which a straight-line
 * projection multiplies out, so its note gives only the bound it reached.
 */
export const ENOUGH_DONE = 0.25;

/** Whether a build that stopped after `done` of `total` files did enough of them to project the whole. */
export function enoughDone(done: number, total: number): boolean {
  return done > 0 && done >= total * ENOUGH_DONE;
}

/** A build stopped because it passed a budget: no index is made; the workspace scans. */
export class IndexOverBudget extends Error {
  readonly passed: BudgetPassed;
  constructor(passed: BudgetPassed) {
    super(budgetNote(passed));
    this.name = 'IndexOverBudget';
    this.passed = passed;
  }
}

/**
 * The note `capabilities.searchIndex` carries once a budget was passed: which one, by how much, and
 * what to set to raise it: the platform option, or with `names` (the budget's
 * {@link SearchIndexBudget.names}) the host's own setting. A measure of the whole (a finished build,
 * a saved index, an update) or a build's projection ({@link BudgetPassed.projected}) gives the bytes to
 * set, with a quarter more for room; a build that stopped too early to tell gives only what it knows:
 * the bound must be above what it reached, and the whole takes more.
 */
export function budgetNote(passed: BudgetPassed, names?: BudgetNames): string {
  const what = passed.budget === 'maxIndexBytes' ? 'index size' : 'build memory';
  const { done, total } = passed;
  const building = done !== undefined && total !== undefined && done < total;
  const reached = formatBytes(passed.reached);
  const over = `${formatBytes(passed.reached - passed.limit)} over ${names ? names[passed.budget] : `searchIndex.${passed.budget}`} (${formatBytes(passed.limit)})`;
  let head: string;
  if (passed.saved) head = `the saved index is ${reached}, ${over}`;
  else if (building) head = `its ${what} reached ${reached} after ${done} of ${total} files, ${over}`;
  else if (done !== undefined) head = `its ${what} is ${reached} once built, ${over}`;
  else head = `its ${what} reached ${reached} after updates, ${over}`;
  head = `search index off, searches scan every file: ${head}`;
  if (building && passed.projected === undefined) {
    const bound = Math.ceil(passed.reached);
    const whole = passed.budget === 'maxIndexBytes' ? 'the whole index is larger' : 'the whole build needs more';
    const why = `${formatBytes(bound)} (${bound} bytes): the build had done ${done} of ${total} files, and ${whole}, how much is known only once a build gets further`;
    if (names) return `${head}; set ${names[passed.budget]} above ${why}`;
    return `${head}; set searchIndex: { ${passed.budget}: N } with N above ${why}`;
  }
  const need = Math.max(passed.reached, passed.projected ?? passed.reached);
  const mib = Math.ceil((need * 1.25) / (1024 * 1024));
  const projected = building ? ` (projected from the ${done} of ${total} files done)` : '';
  if (names) return `${head}; set ${names[passed.budget]} to ${mib} MiB (${mib * 1024 * 1024} bytes) or more to index this workspace${projected}`;
  return `${head}; set searchIndex: { ${passed.budget}: ${mib} * 1024 * 1024 } or more to index this workspace${projected}`;
}
