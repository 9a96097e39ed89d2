// Round-trip bench worker: a ToolRunner with one trivial tool served over the bridge (exposeToolRunner)
// when named "toolhost", or a bare comlink object with a no-op method otherwise (the anchor).
import { expose } from 'comlink';
import { exposeToolRunner } from '../../src/remote/remote.js';
import { ToolRunner } from '../../src/runner.js';
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { defineTool } from '../../src/core/tool.js';

if (self.name === 'toolhost') {
  const noop = defineTool({
    name: 'noop',
    description: 'Returns its argument.',
    parameters: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false },
    readOnly: true,
    call: async (args: { n?: number }) => args.n ?? 0,
  });
  exposeToolRunner(new ToolRunner({ platform: createMemoryPlatform(), tools: [noop] }));
} else {
  expose({ noop: (n: number) => n });
}
