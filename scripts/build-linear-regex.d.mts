/** The generated re2js bundle (linear-regex/re2js.min.js). */
export const LINEAR_REGEX_BUNDLE: string;
/** Builds linear-regex/re2js.min.js from the installed re2js. */
export function buildLinearRegexBundle(): Promise<void>;
/** Builds linear-regex/re2js.min.js unless it is there and newer than the installed re2js. */
export function ensureLinearRegexBundle(): Promise<void>;
