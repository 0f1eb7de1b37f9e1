import type { StepExecutor } from '@docflow/engine';
type JsonSchema = NonNullable<StepExecutor['configSchema']>;
/** JSON Schema (draft 2020-12 subset understood by ajv 8) of the ParseConfig. */
export declare const parseConfigSchema: JsonSchema;
/** JSON Schema of the PARSE step's `config`: `{ parseConfig?: ParseConfig }`. */
export declare const parseStepConfigSchema: JsonSchema;
export {};
//# sourceMappingURL=parse-config-schema.d.ts.map