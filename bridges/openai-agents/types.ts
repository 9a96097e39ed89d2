/** The shape of the Agents SDK's non-strict JSON object schema (its `JsonObjectSchemaNonStrict`, not exported by name). */
export interface AgentsObjectSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: true;
  description?: string;
}
