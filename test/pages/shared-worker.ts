// Test shared worker: ONE test runner served to every page that connects.
import { exposeSharedToolRunner } from '../../web/shared.js';
import { buildRunner } from './runner-setup.js';

exposeSharedToolRunner(({ onMessage }) => buildRunner(onMessage));
