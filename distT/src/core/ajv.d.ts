/**
 * Makes runtime schema compiles use the ajv bundled with this entry, in the schema's dialect (draft-07,
 * 2019-09 or 2020-12; options: all errors, no strict mode, no format validation, no coercion, no
 * defaults). Where the environment forbids `eval` (a Content-Security-Policy without `'unsafe-eval'`) a
 * compile still fails, with a TypeError naming the tool; precompile those schemas instead
 * (`precompileValidators` in `toolhost/node`), or use a Standard Schema (zod, valibot).
 */
export declare function useAjv(): void;
