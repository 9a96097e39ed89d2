/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js(): Promise<typeof import('re2js')>;
