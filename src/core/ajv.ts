/**
 * toolhost/ajv: runtime JSON Schema compiles in a browser bundle. The core entry leaves ajv out of every
 * bundle (the built-in tools validate with validators generated ahead of time); a worker that registers
 * tools with schemas of its own imports this entry and calls {@link useAjv} once.
 */
import { Ajv } from 'ajv';
import { provideSchemaCompiler, type SchemaCompiler } from './validation.js';

/**
 * Makes runtime schema compiles use the ajv bundled with this entry (options: all errors, no strict
 * mode, no format validation, no coercion, no defaults). Where the environment forbids `eval` (a
 * Content-Security-Policy without `'unsafe-eval'`) a compile still fails with `invalid_arguments`;
 * precompile those schemas instead.
 */
export function useAjv(): void {
  provideSchemaCompiler(async () =>
    new Ajv({ allErrors: true, strict: false, validateFormats: false, coerceTypes: false, useDefaults: false, logger: false }) as unknown as SchemaCompiler,
  );
}
