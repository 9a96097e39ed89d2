/**
 * toolhost/ajv: runtime JSON Schema compiles in a browser bundle. The core entry leaves ajv out of every
 * bundle (the built-in tools validate with validators generated ahead of time); a worker that registers
 * tools with schemas of its own imports this entry and calls {@link useAjv} once.
 */
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AJV_OPTIONS, provideSchemaCompiler } from './validation.js';
/**
 * Makes runtime schema compiles use the ajv bundled with this entry, in the schema's dialect (draft-07,
 * 2019-09 or 2020-12; options: all errors, no strict mode, no format validation, no coercion, no
 * defaults). Where the environment forbids `eval` (a Content-Security-Policy without `'unsafe-eval'`) a
 * compile still fails, with a TypeError naming the tool; precompile those schemas instead
 * (`precompileValidators` in `toolhost/node`), or use a Standard Schema (zod, valibot).
 */
export function useAjv() {
    provideSchemaCompiler(async (dialect) => {
        const options = { ...AJV_OPTIONS, logger: false };
        if (dialect === '2020-12')
            return new Ajv2020(options);
        if (dialect === '2019-09')
            return new Ajv2019(options);
        return new Ajv(options);
    });
}
//# sourceMappingURL=ajv.js.map