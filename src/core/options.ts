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

/**
 * What kind of object `value` is when JSON would not say it: `Set`, `Map`, `Generator`, a class's
 * name; undefined for a plain object, an array, or anything else JSON shows as it is.
 */
function objectKind(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
  if (proto === null || proto === Object.prototype) return undefined;
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (tag !== 'Object') return tag;
  const name = proto.constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : undefined;
}

/** `a Set`, `an Iterator`: the kind with its article. */
function withArticle(kind: string): string {
  return `${/^[AEIOU]/i.test(kind) ? 'an' : 'a'} ${kind}`;
}

/** True for an iterable object that is not an array (a Set, a Map, a generator, an iterator). */
function isOtherIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/**
 * What to pass instead of `value` where an array goes, as the end of a sentence (`; pass an array:
 * [...set]`), when `value` is another iterable (a Set, a Map, a generator); '' otherwise.
 */
export function arrayInstead(value: unknown): string {
  if (!isOtherIterable(value)) return '';
  if (value instanceof Map) return '; pass an array of its values: [...map.values()]';
  if (value instanceof Set) return '; pass an array: [...set] (or Array.from(set))';
  return '; pass an array: [...iterable] (or Array.from(iterable))';
}

/**
 * A short, readable rendering of a bad value for a message: `-1`, `NaN`, `"5000"`, `{}`, `a function`;
 * an object that is not a plain object or an array, where JSON would show it as `{}`, by its kind:
 * `a Set (3 items)`, `a Map (2 entries)`, `a Generator`, `a Foo` (a class's instance).
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'function') return 'a function';
  if (value === undefined) return 'undefined';
  const kind = typeof value === 'object' && value !== null ? objectKind(value) : undefined;
  if (kind !== undefined) {
    if (value instanceof Set) return `${withArticle(kind)} (${value.size} item${value.size === 1 ? '' : 's'})`;
    if (value instanceof Map) return `${withArticle(kind)} (${value.size} entr${value.size === 1 ? 'y' : 'ies'})`;
    if (isOtherIterable(value)) return withArticle(kind);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = Object.prototype.toString.call(value);
  if (text === '{}' && kind !== undefined) return withArticle(kind);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A rule from a test and the phrase saying what it accepts. */
export function rule(accepts: string, test: (value: unknown) => boolean): OptionRule {
  return (value, name) => (test(value) ? undefined : `${name} must be ${accepts}, not ${describeValue(value)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` behaves as an AbortSignal (by shape: signals from another realm pass too). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { aborted?: unknown }).aborted === 'boolean' &&
    typeof (value as { addEventListener?: unknown }).addEventListener === 'function' &&
    typeof (value as { removeEventListener?: unknown }).removeEventListener === 'function'
  );
}

/** Rules that also apply to an option left undefined (see `is.required`). */
const REQUIRED = new WeakSet<OptionRule>();

/** The rules the option checks are made of. */
export const is = {
  boolean: rule('true or false', (v) => typeof v === 'boolean'),
  string: rule('a string', (v) => typeof v === 'string'),
  nonEmptyString: rule('a non-empty string', (v) => typeof v === 'string' && v.length > 0),
  /** A host path: a non-empty string without NUL bytes (`''` is never taken as the current directory). */
  path: rule('a non-empty path without NUL bytes', (v) => typeof v === 'string' && v.length > 0 && !v.includes('\0')),
  function: rule('a function', (v) => typeof v === 'function'),
  object: rule('an object', isPlainObject),
  abortSignal: rule('an AbortSignal', isAbortSignal),
  /** A deadline: ms > 0; `Infinity` means none. */
  deadlineMs: rule('a positive number of milliseconds, or Infinity for no deadline', (v) => typeof v === 'number' && v > 0),
  /** A finite duration > 0 in ms. */
  positiveMs: rule('a finite positive number of milliseconds', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0),
  /** A finite duration ≥ 0 in ms. */
  nonNegativeMs: rule('a finite number of milliseconds, 0 or more', (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0),
  /** An integer ≥ 1. */
  positiveInteger: rule('a positive integer', (v) => Number.isSafeInteger(v) && (v as number) > 0),
  /** An absolute URL (`new URL` parses it). */
  url: rule('an absolute URL such as https://example.com/', (v) => {
    if (typeof v !== 'string') return false;
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }),
  /** One of the listed values. */
  oneOf(...values: readonly unknown[]): OptionRule {
    const listed = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
    const accepts = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`;
    return rule(accepts as string, (v) => values.includes(v));
  },
  /** An array whose every item passes `item` (`allow[2] must be …`). */
  arrayOf(item: OptionRule, accepts: string): OptionRule {
    return (value, name) => {
      if (!Array.isArray(value)) return `${name} must be ${accepts}, not ${describeValue(value)}${arrayInstead(value)}`;
      for (let i = 0; i < value.length; i += 1) {
        const problem = item(value[i], `${name}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    };
  },
  /** An object whose own options follow `rules` (`command.killGraceMs must be …`); a key without a rule is refused. */
  options(rules: OptionRules, accepts = 'an object'): OptionRule {
    return (value, name) => {
      if (!isPlainObject(value)) return `${name} must be ${accepts}, not ${describeValue(value)}`;
      return problemOf(value, rules, `${name}.`);
    };
  },
  /** An object with these methods (a StateStore, a Platform's fs). */
  withMethods(methods: readonly string[], accepts: string): OptionRule {
    return (value, name) => {
      if (typeof value !== 'object' || value === null) return `${name} must be ${accepts}, not ${describeValue(value)}`;
      const missing = methods.filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function');
      return missing.length === 0 ? undefined : `${name} must be ${accepts}; it has no ${missing.join(', ')} method${missing.length === 1 ? '' : 's'}`;
    };
  },
  /** `rule`, also applied when the option is undefined (inside {@link is.options}). */
  required(inner: OptionRule): OptionRule {
    const wrapped: OptionRule = (value, name) => inner(value, name);
    REQUIRED.add(wrapped);
    return wrapped;
  },
  /** Passes when any of `rules` passes; else the message says `accepts`. */
  anyOf(accepts: string, ...rules: readonly OptionRule[]): OptionRule {
    return (value, name) => {
      const problems = rules.map((r) => r(value, name));
      if (problems.some((p) => p === undefined)) return undefined;
      // A value of the right kind reports its own (nested) problem; any other value the alternatives.
      const nested = problems.find((p) => p !== undefined && !p.startsWith(`${name} must be `));
      return nested ?? `${name} must be ${accepts}, not ${describeValue(value)}`;
    };
  },
} as const;

/**
 * Edit distance of two short strings, case-insensitive, a swap of neighbouring letters counting as one
 * edit (`flies` → `files`): for the "did you mean" of a misspelled key.
 */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i += 1) {
    const row = d[i] as number[];
    const above = d[i - 1] as number[];
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[x.length] as number[])[y.length] as number;
}

/** The known name `key` most probably misspells: at most a third of its letters off (case aside), else undefined. */
export function closestName(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(key, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(Math.max(key.length, (best ?? '').length) / 3)) ? best : undefined;
}

/**
 * The problem with a key that has no rule: `"defaultTimeoutMS is not an option (did you mean
 * defaultTimeoutMs?)"`, or with no close name, the options there are. A key whose value is undefined
 * is let through (it asks for nothing).
 */
function unknownKeyProblem(options: Record<string, unknown>, rules: OptionRules, prefix: string): string | undefined {
  for (const key of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(rules, key) || options[key] === undefined) continue;
    const known = Object.keys(rules);
    const near = closestName(key, known);
    const hint = near !== undefined ? `did you mean ${prefix}${near}?` : known.length === 0 ? 'no option is taken there' : `the options are ${known.join(', ')}`;
    return `${prefix}${key} is not an option (${hint})`;
  }
  return undefined;
}

function problemOf(options: Record<string, unknown>, rules: OptionRules, prefix: string): string | undefined {
  const unknown = unknownKeyProblem(options, rules, prefix);
  if (unknown) return unknown;
  for (const [name, check] of Object.entries(rules)) {
    const value = options[name];
    if (value === undefined && !REQUIRED.has(check)) continue;
    const problem = check(value, `${prefix}${name}`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Checks `options` (an object, or undefined for all defaults) against `rules` and throws a TypeError
 * `"<where>: <option> must be <what is accepted>, not <value>"` for the first bad one, or
 * `"<where>: <key> is not an option (did you mean <option>?)"` for a key without a rule (a misspelled
 * option would otherwise be ignored and its default silently used).
 */
export function checkOptions(where: string, options: unknown, rules: OptionRules): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be an object, not ${describeValue(options)}`);
  const problem = problemOf(options, rules, '');
  if (problem) throw new TypeError(`${where}: ${problem}`);
}

/** A StateStore: an object with at least the two methods the runner calls, `getAll` and `setMany`. */
export const stateStoreRule: OptionRule = is.withMethods(['getAll', 'setMany'], 'a StateStore such as new MemoryStateStore()');

/** The per-call options of `execute` and `processToolCalls` (the runner's `CallOptions`). */
export const callOptionRules: OptionRules = {
  conversationId: is.nonEmptyString,
  signal: is.abortSignal,
  timeoutMs: is.deadlineMs,
  onMessage: is.function,
};

/**
 * {@link checkOptions} of a call's options with {@link callOptionRules}: a TypeError
 * `"<where>: timeoutMs must be …, not -1"`, or `"<where>: timeoutMS is not an option (did you mean
 * timeoutMs?)"`. Costs a walk of the object's keys when none is set (every call pays it).
 */
export function checkCallOptions(where: string, options: unknown): void {
  if (options === undefined) return;
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) {
    let empty = true;
    for (const key in options) {
      if (Object.prototype.hasOwnProperty.call(options, key)) {
        empty = false;
        break;
      }
    }
    if (empty) return;
  }
  checkOptions(where, options, callOptionRules);
}

/**
 * The `calls` of `processToolCalls`: an array (its items are the model's, each checked as a call). A
 * TypeError for the host's wiring mistakes, before any call runs: a non-array (`"<where>: calls must
 * be an array of tool calls { id?, name, args }, not \"x\""`); a call that carries a model API's
 * shape instead of `args` (`arguments` or `input` and no `args`, or a chat-completions call's
 * `function: { name, arguments }`), saying to pass the parsed object as `args`; an id that is not a
 * string (a number would be lost from the answer); two calls sharing an id (answers are matched by
 * id; calls without ids are fine). What the model got wrong (an `args` that
 * is not an object, even a string) is that call's `invalid_arguments` answer.
 */
export function checkToolCalls(where: string, calls: unknown): void {
  if (!Array.isArray(calls)) throw new TypeError(`${where}: calls must be an array of tool calls { id?, name, args }, not ${describeValue(calls)}`);
  const ids = new Map<string, number>();
  calls.forEach((call: unknown, index) => {
    if (!isPlainObject(call)) return; // answered per call, as the model's malformed call
    const what = `call ${index}${typeof call.name === 'string' ? ` (${JSON.stringify(call.name).slice(0, 80)})` : ''}`;
    const wire = call.args === undefined ? ['arguments', 'input'].find((key) => Object.hasOwn(call, key) && call[key] !== undefined) : undefined;
    if (wire !== undefined) {
      const parse = typeof call[wire] === 'string' ? `JSON.parse the model's ${wire} string first: { id, name, args: JSON.parse(${wire}) }` : `rename it: { id, name, args: ${wire} }`;
      throw new TypeError(`${where}: ${what} has ${wire} and no args; pass the tool's arguments as args, the parsed object (${parse})`);
    }
    if (typeof call.name !== 'string' && isPlainObject(call.function)) {
      throw new TypeError(
        `${where}: ${what} is a chat-completions tool call { id, type, function: { name, arguments } }; pass { id, name: call.function.name, args: JSON.parse(call.function.arguments) } instead`,
      );
    }
    if (call.id === undefined) return;
    if (typeof call.id !== 'string') {
      // A number would be dropped from the answer (ids are strings): said here rather than lost.
      const hint = typeof call.id === 'number' ? `; pass String(id) (${JSON.stringify(String(call.id))})` : '';
      throw new TypeError(`${where}: ${what} has the id ${describeValue(call.id)}; a call's id is a string, echoed in its answer, or left out${hint}`);
    }
    const first = ids.get(call.id);
    if (first !== undefined) {
      throw new TypeError(
        `${where}: calls ${first} and ${index} share the id ${JSON.stringify(call.id).slice(0, 80)}; answers are matched by id, so give each call of a batch its own id (or leave ids out)`,
      );
    }
    ids.set(call.id, index);
  });
}

/** A ToolHost (a ToolRunner, a RemoteToolRunner, a worker pool): an object with `tools()` and `processToolCalls()`. */
export const toolHostRule: OptionRule = is.withMethods(['tools', 'processToolCalls'], 'a ToolHost such as new ToolRunner({ tools })');

/** A TypeError `"<where>: host must be a ToolHost such as new ToolRunner({ tools }), not null"` unless `host` is one. */
export function checkToolHost(where: string, host: unknown): void {
  const problem = toolHostRule(host, 'host');
  if (problem) throw new TypeError(`${where}: ${problem}`);
}

/** Tool-name patterns (`include`, `deny`, `ask` lists of the bridges). */
export const toolPatternsRule: OptionRule = is.arrayOf(is.string, 'an array of tool-name patterns (strings such as "view_*")');
