/**
 * Makes a provider's answer conform to the extractor's JSON Schema, or says why it cannot. A
 * value is first shaped by the schema (types coerced, unknown keys dropped where the schema
 * forbids them, missing nullable fields set to null), then validated with ajv; each remaining
 * error is repaired by nulling or dropping the offending field where the schema allows it.
 * Whatever is returned as `ok` has passed ajv.
 */
import { type ValidateFunction } from 'ajv';
import type { JsonSchema } from './processor-config.ts';
import type { ExtractValue } from './provider.ts';
/** The outcome of {@link conformToSchema}. */
export type ConformResult = {
    readonly ok: true;
    readonly value: {
        [key: string]: ExtractValue;
    };
    readonly repairs: string[];
} | {
    readonly ok: false;
    readonly errors: string[];
};
/** The compiled validator of `schema`; throws with ajv's message when the schema is invalid. */
export declare function schemaValidator(schema: JsonSchema): ValidateFunction;
/** Checks that `schema` can be used by an extractor; returns the problems, empty when fine. */
export declare function checkExtractionSchema(schema: unknown): string[];
/**
 * Shapes `value` by `schema`, validates it with ajv and repairs what it can. Never returns a value
 * that does not validate.
 */
export declare function conformToSchema(value: unknown, schema: JsonSchema): ConformResult;
//# sourceMappingURL=conform-to-schema.d.ts.map