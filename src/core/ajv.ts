/**
 * ajv's three validator classes, one per JSON Schema dialect, as one module: the source of the file
 * `lazy/ajv.min.js` (scripts/build-lazy.mjs), which a browser bundle fetches on the first runtime
 * compile of a JSON Schema that has no precompiled validator (see `compileValidator` in
 * validation.ts), so no app has to provide ajv and a bundle without such schemas never loads it.
 * Imports nothing of toolhost's own, so the file carries ajv alone.
 */
export { Ajv } from 'ajv';
export { Ajv2019 } from 'ajv/dist/2019.js';
export { Ajv2020 } from 'ajv/dist/2020.js';
