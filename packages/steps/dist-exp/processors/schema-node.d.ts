/**
 * A JSON Schema (the subset extractors use) read into a typed tree: which fields are dates,
 * currencies, enums, tables (arrays of objects). Recognises `format: "date"`, a `<ns>:type`
 * keyword (`"service:type": "date" | "currency"`, the hosted service's convention), and the
 * `{ amount, iso_4217 }` object shape for currency.
 */
import type { JsonSchema } from './processor-config.ts';
/** The kinds of value the extractor knows how to produce. */
export type SchemaKind = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'currency' | 'enum' | 'object' | 'array' | 'unknown';
/** One node of a schema. */
export interface SchemaNode {
    readonly kind: SchemaKind;
    /** `type` includes `null`, or an enum lists null. */
    readonly nullable: boolean;
    readonly title?: string;
    readonly description?: string;
    /** Enum members (without null). */
    readonly enumValues?: readonly (string | number | boolean)[];
    /** Descriptions of enum members by index (`<ns>:descriptions`). */
    readonly enumDescriptions?: readonly string[];
    /** Object properties in declaration order. */
    readonly properties?: readonly SchemaProperty[];
    /** Array items. */
    readonly items?: SchemaNode;
    readonly schema: JsonSchema;
}
/** A property of an object node. */
export interface SchemaProperty {
    readonly name: string;
    readonly required: boolean;
    readonly node: SchemaNode;
}
/** Reads a JSON Schema into a {@link SchemaNode} tree. */
export declare function readSchema(schema: JsonSchema, name?: string): SchemaNode;
//# sourceMappingURL=schema-node.d.ts.map