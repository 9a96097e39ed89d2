import { is, rule, type OptionRule } from './options.js';

/** A request to run a tool that the policy does not settle by itself. */
export interface PermissionRequest {
  tool: string;
  args: unknown;
  conversationId: string;
  callId: string;
  readOnly: boolean;
  /**
   * Aborts when the call is cancelled while the prompt is open (close the dialog then); the call ends
   * `cancelled`. Non-enumerable, so the request can be posted to another thread or page as it is.
   */
  signal: AbortSignal;
}

/** An answer to a {@link PermissionRequest}: this call only, this tool for the rest of the conversation, or no. */
export type PermissionAnswer = 'allow_once' | 'allow_session' | 'deny';

/**
 * Who may run what: `'allow_all'`, or rules. In rules, patterns are tool names and a trailing `*` is
 * a prefix match; `deny` wins over `allow`; a read-only tool not matched by either is allowed; anything
 * else goes to `ask`, and is denied when there is no `ask`. Only read-only tools at all is plan mode
 * (the runner's `planMode`), which holds over any policy.
 */
export type PermissionPolicy =
  | 'allow_all'
  | {
      allow?: string[];
      deny?: string[];
      ask?: (request: PermissionRequest) => Promise<PermissionAnswer>;
    };

const toolPatterns = is.arrayOf(is.string, 'an array of tool-name patterns (strings such as "deploy_*")');

const policyForms = is.anyOf(
  "'allow_all' or { allow?: string[], deny?: string[], ask?: (request) => Promise<'allow_once' | 'allow_session' | 'deny'> }",
  is.oneOf('allow_all'),
  is.options({
    allow: toolPatterns,
    deny: toolPatterns,
    ask: rule("a function (request) => Promise<'allow_once' | 'allow_session' | 'deny'>", (v) => typeof v === 'function'),
  }),
);

/**
 * The check of a {@link PermissionPolicy} option: `'allow_all'`, or an object whose `allow` / `deny`
 * are arrays of strings and whose `ask` is a function. `'read_only'` is answered with the one
 * read-only switch to use instead, plan mode.
 */
export const permissionPolicyRule: OptionRule = (value, name) =>
  value === 'read_only' ? `${name} 'read_only' is plan mode: pass planMode: true (or call setPlanMode(true)) instead, and leave ${name} out` : policyForms(value, name);

/** One refusal, as the denial tracker keeps it. `time` is ms since the epoch. */
export interface Denial {
  tool: string;
  args: unknown;
  reason: string;
  conversationId: string;
  time: number;
}

/** Log of every refused call. Keeps the newest 1,000. */
export class DenialTracker {
  readonly #denials: Denial[] = [];

  /** Records a refusal. */
  record(denial: Denial): void {
    this.#denials.push(denial);
    if (this.#denials.length > 1000) this.#denials.shift();
  }

  /** Refusals so far, oldest first (a copy). */
  list(): Denial[] {
    return this.#denials.slice();
  }

  /** How many refusals there were, optionally for one tool. */
  count(tool?: string): number {
    return tool === undefined ? this.#denials.length : this.#denials.filter((d) => d.tool === tool).length;
  }

  /** Forgets every refusal. */
  clear(): void {
    this.#denials.length = 0;
  }
}

/** The outcome of a permission check: allowed, or denied with a reason for the model. */
export type PermissionDecision = { allowed: true } | { allowed: false; reason: string };

/** True when `name` matches `pattern` (exact, or prefix when the pattern ends in `*`). */
export function matchesToolPattern(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/**
 * Applies a {@link PermissionPolicy} and plan mode to tool calls, remembering `allow_session` answers
 * per conversation and tool.
 */
export class PermissionChecker {
  readonly policy: PermissionPolicy;
  readonly #sessionAllowed = new Set<string>();

  /** Throws a TypeError naming what is wrong with a policy that is not a {@link PermissionPolicy}. */
  constructor(policy: PermissionPolicy = 'allow_all') {
    const problem = permissionPolicyRule(policy, 'policy');
    if (problem) throw new TypeError(`PermissionChecker: ${problem}`);
    this.policy = policy;
  }

  /** Decides a call. `planMode` refuses every tool that is not read-only. Never rejects: a throwing `ask` is a denial. */
  async check(request: PermissionRequest, planMode: boolean): Promise<PermissionDecision> {
    const { tool, readOnly } = request;
    if (planMode && !readOnly) {
      return { allowed: false, reason: `plan mode is on: ${tool} changes things and only read-only tools may run; read and plan with those, and propose the change instead of making it (the user or host turns plan mode off)` };
    }
    const policy = this.policy;
    if (policy === 'allow_all') return { allowed: true };
    if (policy.deny?.some((p) => matchesToolPattern(p, tool))) {
      return { allowed: false, reason: `${tool} is denied by the permission rules` };
    }
    if (policy.allow?.some((p) => matchesToolPattern(p, tool))) return { allowed: true };
    if (readOnly) return { allowed: true };
    const sessionKey = `${request.conversationId}\u0000${tool}`;
    if (this.#sessionAllowed.has(sessionKey)) return { allowed: true };
    if (!policy.ask) {
      return { allowed: false, reason: `${tool} needs permission and no one can grant it: the permission rules neither allow it nor give an ask handler` };
    }
    let answer: PermissionAnswer;
    try {
      answer = await policy.ask(request);
    } catch (error) {
      return { allowed: false, reason: `the permission prompt failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (answer === 'allow_session') {
      this.#sessionAllowed.add(sessionKey);
      return { allowed: true };
    }
    if (answer === 'allow_once') return { allowed: true };
    return { allowed: false, reason: `the user denied ${tool}` };
  }
}
