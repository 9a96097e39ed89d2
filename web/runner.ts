import type { ToolRunnerOptions } from '../src/core/runner.js';
import { ToolRunner } from '../src/runner.js';
import type { WebPlatform } from './platform.js';

/** Options of {@link WebToolRunner}: those of {@link ToolRunner}, with a web platform. */
export interface WebToolRunnerOptions extends ToolRunnerOptions {
  platform: WebPlatform;
}

/**
 * @deprecated Use {@link ToolRunner}: it honours the web platform's `batch` itself (one IndexedDB
 * commit per `processToolCalls` batch, calls one at a time). Kept so existing code still compiles;
 * it adds nothing to ToolRunner.
 */
export class WebToolRunner extends ToolRunner {
  constructor(options: WebToolRunnerOptions) {
    super(options);
  }
}
