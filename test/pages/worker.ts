// Test worker (dedicated): the test runner served over the core bridge.
import { exposeToolRunner } from '../../src/remote/remote.js';
import { buildRunner } from './runner-setup.js';

exposeToolRunner(({ onMessage }) => buildRunner(onMessage));
