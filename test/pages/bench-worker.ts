// The smallest useful web worker, for the bundle-size figure: the web platform, every built-in tool,
// the runner and the bridge.
import { exposeToolRunner } from '../../src/remote/remote.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { ToolRunner } from '../../src/runner.js';
import { createWebPlatform } from '../../web/index.js';

exposeToolRunner(() => new ToolRunner({ platform: createWebPlatform({ workspace: self.name || 'default' }), tools: BuiltinTools.all() }));
