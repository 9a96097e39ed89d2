import { isStandardSchema } from './standard-schema.js';
import { describeValue } from './options.js';
export function defineTool(definition) {
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
        throw new TypeError(`defineTool: definition must be an object { name, description, inputSchema, execute } (or { name, description, parameters, call }), not ${describeValue(definition)}`);
    }
    if ('execute' in definition || 'inputSchema' in definition)
        return defineExecuteTool(definition);
    return defineClassicTool(definition);
}
function defineExecuteTool(definition) {
    const { name, inputSchema, execute } = definition;
    if (typeof execute !== 'function')
        throw new TypeError(`defineTool(${String(name)}): execute must be a function (input, ctx) => result`);
    const isJsonObject = typeof inputSchema === 'object' && inputSchema !== null && !Array.isArray(inputSchema) && !isStandardSchema(inputSchema);
    if (!isJsonObject && !isStandardSchema(inputSchema)) {
        throw new TypeError(`defineTool(${String(name)}): inputSchema must be a JSON Schema object or a Standard Schema (zod 4, valibot, arktype)`);
    }
    const tool = {
        name: definition.name,
        description: definition.description,
        inputSchema,
        execute: execute,
        ...(definition.jsonSchema === undefined ? {} : { jsonSchema: definition.jsonSchema }),
        ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
        ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
        ...(definition.concurrencySafe === undefined ? {} : { concurrencySafe: definition.concurrencySafe }),
        ...(definition.isReadOnlyCall === undefined ? {} : { isReadOnlyCall: definition.isReadOnlyCall }),
    };
    return tool;
}
function defineClassicTool(definition) {
    const { call, callWithContext } = definition;
    if (!call && !callWithContext) {
        throw new TypeError(`defineTool(${definition.name}): give call or callWithContext`);
    }
    const needsContext = definition.needsContext ?? callWithContext !== undefined;
    const tool = {
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        readOnly: definition.readOnly ?? false,
        concurrencySafe: definition.concurrencySafe ?? definition.readOnly ?? false,
        needsContext,
        ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
        ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
        ...(definition.isReadOnlyCall === undefined ? {} : { isReadOnlyCall: definition.isReadOnlyCall }),
        call: call
            ? async (args) => call(args)
            : async () => {
                throw new TypeError(`${definition.name} needs a ToolContext: call it through a ToolRunner`);
            },
    };
    if (callWithContext) {
        tool.callWithContext = async (args, ctx) => callWithContext(args, ctx);
    }
    return tool;
}
/** True for a tool in the {@link ExecuteTool} shape (it has `execute` and `inputSchema`). */
export function isExecuteTool(tool) {
    return (typeof tool === 'object' &&
        tool !== null &&
        typeof tool.execute === 'function' &&
        tool.inputSchema !== undefined);
}
//# sourceMappingURL=tool.js.map