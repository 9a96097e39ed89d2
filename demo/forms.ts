// A form generated from a tool's JSON Schema, and live validation with the runner's own messages:
// the same coercion (`coerceArguments`), ajv options and wording (`formatValidationErrors`).
import { Ajv, type ValidateFunction } from 'ajv';
import type { FunctionDeclaration, JsonSchema } from 'toolhost';
// The runner's own coercion and messages, so the form validates exactly as a call would (not public API).
import { coerceArguments, formatValidationErrors } from '../src/core/validation.js';
import { h } from './dom.js';

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, coerceTypes: false, useDefaults: false, logger: false });
const validators = new Map<string, ValidateFunction>();

/** `null` when the arguments are valid, else the message the runner would give (`invalid arguments for view_file: ...`). */
export function validateArgs(tool: FunctionDeclaration, args: unknown): string | null {
  let validate = validators.get(tool.name);
  if (!validate) {
    validate = ajv.compile(tool.parameters);
    validators.set(tool.name, validate);
  }
  const coerced = coerceArguments(args ?? {}, tool.parameters);
  if (validate(coerced)) return null;
  return `invalid arguments for ${tool.name}: ${formatValidationErrors(validate.errors ?? [], tool.parameters, { data: coerced })}`;
}

interface Property {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

const MULTILINE = new Set(['content', 'old_string', 'new_string', 'result', 'task', 'prompt']);

function typeOf(schema: JsonSchema): string {
  const type = (schema as { type?: unknown }).type;
  if (Array.isArray(type)) return String(type.find((t) => t !== 'null') ?? 'string');
  return typeof type === 'string' ? type : 'any';
}

/** A generated form: its element, the arguments it holds, and a way to fill it from arguments. */
export interface SchemaForm {
  element: HTMLElement;
  read(): Record<string, unknown>;
  write(args: Record<string, unknown>): void;
}

/**
 * Builds a form for `tool.parameters`: text, number, yes/no and choice fields; arrays and objects as
 * JSON. Empty fields are left out of the arguments. Numbers are sent as typed so that the runner's
 * validation, not the form, decides what is wrong.
 */
export function buildForm(tool: FunctionDeclaration, onInput: () => void): SchemaForm {
  const properties = (tool.parameters as { properties?: Record<string, JsonSchema> }).properties ?? {};
  const required = new Set((tool.parameters as { required?: string[] }).required ?? []);
  const props: Property[] = Object.entries(properties).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
  const fields = new Map<string, { get(): unknown; set(value: unknown): void }>();
  const element = h('div', { class: 'form-fields' });
  if (props.length === 0) element.append(h('p', { class: 'hint' }, 'This tool takes no arguments.'));

  for (const prop of props) {
    const id = `arg-${tool.name}-${prop.name}`;
    const description = (prop.schema as { description?: string }).description;
    const type = typeOf(prop.schema);
    const choices = (prop.schema as { enum?: unknown[] }).enum;
    let control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
    let get: () => unknown;
    let set: (value: unknown) => void;
    if (choices || type === 'boolean') {
      const values = choices ?? [true, false];
      const select = h('select', { id }, h('option', { value: '' }, '(not set)'), ...values.map((v) => h('option', { value: JSON.stringify(v) }, String(v))));
      control = select;
      get = () => (select.value === '' ? undefined : (JSON.parse(select.value) as unknown));
      set = (value) => (select.value = value === undefined ? '' : JSON.stringify(value));
    } else if (type === 'integer' || type === 'number') {
      const input = h('input', { id, type: 'text', inputmode: 'numeric', autocomplete: 'off' });
      control = input;
      get = () => {
        const text = input.value.trim();
        if (text === '') return undefined;
        const n = Number(text);
        return Number.isNaN(n) ? text : n;
      };
      set = (value) => (input.value = value === undefined ? '' : String(value));
    } else if (type === 'string' || type === 'any') {
      const multiline = MULTILINE.has(prop.name);
      const input = multiline ? h('textarea', { id, rows: 4, spellcheck: false }) : h('input', { id, type: 'text', autocomplete: 'off', spellcheck: false });
      control = input;
      get = () => (input.value === '' ? undefined : input.value);
      set = (value) => (input.value = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    } else {
      // arrays and objects: JSON text
      const input = h('input', { id, type: 'text', autocomplete: 'off', spellcheck: false, placeholder: type === 'array' ? '["…"]' : '{ … }' });
      control = input;
      get = () => {
        const text = input.value.trim();
        if (text === '') return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      };
      set = (value) => (input.value = value === undefined ? '' : JSON.stringify(value));
    }
    control.addEventListener('input', onInput);
    control.addEventListener('change', onInput);
    const hintId = `${id}-hint`;
    if (description) control.setAttribute('aria-describedby', hintId);
    if (prop.required) control.setAttribute('aria-required', 'true');
    element.append(
      h(
        'div',
        { class: 'field' },
        h('label', { for: id }, h('code', {}, prop.name), prop.required ? h('span', { class: 'req' }, ' (required)') : null, h('span', { class: 'type' }, ` ${type}`)),
        control,
        description ? h('p', { class: 'hint', id: hintId }, description) : null,
      ),
    );
    fields.set(prop.name, { get, set });
  }

  return {
    element,
    read() {
      const args: Record<string, unknown> = {};
      for (const [name, field] of fields) {
        const value = field.get();
        if (value !== undefined) args[name] = value;
      }
      return args;
    },
    write(args) {
      for (const [name, field] of fields) field.set(args[name]);
    },
  };
}
