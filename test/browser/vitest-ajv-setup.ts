// Setup of the vitest chromium project: some tool tests register tools with schemas of their own, which a
// browser bundle compiles at run time only with ajv provided (toolhost/ajv), as a user's worker does.
import { useAjv } from '../../src/core/ajv.js';

useAjv();
