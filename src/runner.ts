// The package's ToolRunner: the core's runner with toolhost's own defaults, passed in explicitly by
// each constructor (nothing is registered globally at import, so two runners share nothing).
import { ToolRunner as CoreToolRunner, type RunnerDefaults, type ToolRunnerOptions } from './core/runner.js';
import type { GeneratedValidators } from './core/validation.js';
import { createChangeJournal } from './journal/journal.js';
import { createReview } from './journal/review.js';
import { createMemoryPlatform } from './platform/memory.js';
import validators, { checks } from './tools/generated/validators.js';
import { webSearchFallbackTool } from './tools/web-search.js';

/** The built-in tools' validators, generated at build time (`npm run gen:validators`). */
export const BUILTIN_VALIDATORS: GeneratedValidators = { validators, checks };

/**
 * What the package's runner uses where its options say nothing: a fresh memory platform per runner,
 * the web-search fallback under `web_search` and `google_search`, the built-ins' generated validators,
 * a change journal in memory and review mode (see docs/journal.md).
 */
export const TOOLHOST_DEFAULTS: RunnerDefaults = /* @__PURE__ */ Object.freeze({
  platform: () => createMemoryPlatform(),
  fallbackTools: /* @__PURE__ */ Object.freeze({ web_search: webSearchFallbackTool, google_search: webSearchFallbackTool }),
  validators: BUILTIN_VALIDATORS,
  journal: createChangeJournal,
  review: createReview,
});

/**
 * Registers tools and runs tool calls. Validates arguments once (ajv for a JSON Schema, the library
 * itself for a Standard Schema), applies permissions and plan mode, hands tools a `ToolContext`,
 * persists tool state before a call's result is returned, and turns every failure into a coded result.
 * Options left out take toolhost's defaults: a fresh memory platform; a call of `web_search` or
 * `google_search` that no registered tool answers gets the web-search fallback.
 */
export class ToolRunner extends CoreToolRunner {
  constructor(options: ToolRunnerOptions = {}) {
    super(options, TOOLHOST_DEFAULTS);
  }
}

export type {
  CallOptions,
  FunctionDeclaration,
  RegisterOptions,
  RunnerDefaults,
  ToolCall,
  ToolCallFailure,
  ToolCallResult,
  ToolCallSuccess,
  ToolMessage,
  ToolRunnerOptions,
} from './core/runner.js';
