/**
 * Checks of the options a host passes (to `new ToolRunner`, `execute`, the platform factories). A bad
 * option is the host's mistake, never the model's: it throws a TypeError naming the option, the value
 * given and what is accepted (`ToolRunner: defaultTimeoutMs must be a positive number of milliseconds,
 * or Infinity for no deadline, not -1`), at construction or when the call is made, instead of
 * surfacing later as a tool call's `invalid_arguments` or `execution_failed`.
 */
/**
 * One option's check: undefined when `value` is acceptable, else what is wrong with it as the end of a
 * sentence naming `name` (`"timeoutMs must be …, not -1"`).
 */
export type OptionRule = (value: unknown, name: string) => string | undefined;
/**
 * Rules by option name; an option left undefined is never checked (its default applies). A key of the
 * options object that has no rule (a misspelling such as `defaultTimeoutMS`) is refused.
 */
export type OptionRules = Readonly<Record<string, OptionRule>>;
/** A short, readable rendering of a bad value for a message: `-1`, `NaN`, `"5000"`, `{}`, `a function`. */
export declare function describeValue(value: unknown): string;
/** A rule from a test and the phrase saying what it accepts. */
export declare function rule(accepts: string, test: (value: unknown) => boolean): OptionRule;
/** Whether `value` behaves as an AbortSignal (by shape: signals from another realm pass too). */
export declare function isAbortSignal(value: unknown): value is AbortSignal;
/** The rules the option checks are made of. */
export declare const is: {
    readonly boolean: OptionRule;
    readonly string: OptionRule;
    readonly nonEmptyString: OptionRule;
    /** A host path: a non-empty string without NUL bytes (`''` is never taken as the current directory). */
    readonly path: OptionRule;
    readonly function: OptionRule;
    readonly object: OptionRule;
    readonly abortSignal: OptionRule;
    /** A deadline: ms > 0; `Infinity` means none. */
    readonly deadlineMs: OptionRule;
    /** A finite duration > 0 in ms. */
    readonly positiveMs: OptionRule;
    /** A finite duration ≥ 0 in ms. */
    readonly nonNegativeMs: OptionRule;
    /** An integer ≥ 1. */
    readonly positiveInteger: OptionRule;
    /** An absolute URL (`new URL` parses it). */
    readonly url: OptionRule;
    /** One of the listed values. */
    readonly oneOf: (...values: readonly unknown[]) => OptionRule;
    /** An array whose every item passes `item` (`allow[2] must be …`). */
    readonly arrayOf: (item: OptionRule, accepts: string) => OptionRule;
    /** An object whose own options follow `rules` (`command.killGraceMs must be …`); a key without a rule is refused. */
    readonly options: (rules: OptionRules, accepts?: string) => OptionRule;
    /** An object with these methods (a StateStore, a Platform's fs). */
    readonly withMethods: (methods: readonly string[], accepts: string) => OptionRule;
    /** `rule`, also applied when the option is undefined (inside {@link is.options}). */
    readonly required: (inner: OptionRule) => OptionRule;
    /** Passes when any of `rules` passes; else the message says `accepts`. */
    readonly anyOf: (accepts: string, ...rules: readonly OptionRule[]) => OptionRule;
};
/** The known name `key` most probably misspells: at most a third of its letters off (case aside), else undefined. */
export declare function closestName(key: string, known: readonly string[]): string | undefined;
/**
 * Checks `options` (an object, or undefined for all defaults) against `rules` and throws a TypeError
 * `"<where>: <option> must be <what is accepted>, not <value>"` for the first bad one, or
 * `"<where>: <key> is not an option (did you mean <option>?)"` for a key without a rule (a misspelled
 * option would otherwise be ignored and its default silently used).
 */
export declare function checkOptions(where: string, options: unknown, rules: OptionRules): void;
/** A StateStore: an object with at least the two methods the runner calls, `getAll` and `setMany`. */
export declare const stateStoreRule: OptionRule;
/** The per-call options of `execute` and `processToolCalls` (the runner's `CallOptions`). */
export declare const callOptionRules: OptionRules;
/**
 * {@link checkOptions} of a call's options with {@link callOptionRules}: a TypeError
 * `"<where>: timeoutMs must be …, not -1"`, or `"<where>: timeoutMS is not an option (did you mean
 * timeoutMs?)"`. Costs a walk of the object's keys when none is set (every call pays it).
 */
export declare function checkCallOptions(where: string, options: unknown): void;
/**
 * The `calls` of `processToolCalls`: an array (its items are the model's, each checked as a call). A
 * non-array is the host's mistake: a TypeError `"<where>: calls must be an array of tool calls
 * { id?, name, args }, not \"x\""`.
 */
export declare function checkToolCalls(where: string, calls: unknown): void;
/** A ToolHost (a ToolRunner, a RemoteToolRunner, a worker pool): an object with `tools()` and `processToolCalls()`. */
export declare const toolHostRule: OptionRule;
/** A TypeError `"<where>: host must be a ToolHost such as new ToolRunner({ tools }), not null"` unless `host` is one. */
export declare function checkToolHost(where: string, host: unknown): void;
/** Tool-name patterns (`include`, `deny`, `ask` lists of the bridges). */
export declare const toolPatternsRule: OptionRule;
