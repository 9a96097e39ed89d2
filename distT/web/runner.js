import { ToolRunner } from '../src/core/runner.js';
/**
 * @deprecated Use {@link ToolRunner}: it honours the web platform's `batch` itself (one IndexedDB
 * commit per `processToolCalls` batch, calls one at a time). Kept so existing code still compiles;
 * it adds nothing to ToolRunner.
 */
export class WebToolRunner extends ToolRunner {
    constructor(options) {
        super(options);
    }
}
//# sourceMappingURL=runner.js.map