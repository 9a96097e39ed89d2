// The smallest useful web worker, for the bundle-size figure: the web platform, every built-in tool,
// WebToolRunner and the bridge.
import { exposeToolRunner } from '../../src/remote/remote.js';
import { BuiltinTools } from '../../src/tools/index.js';
import type { Tool } from '../../src/core/tool.js';
import { createWebPlatform, WebToolRunner } from '../../web/index.js';

exposeToolRunner(() => new WebToolRunner({ platform: createWebPlatform({ workspace: self.name || 'default' }), tools: BuiltinTools.all() as Tool[] }));
