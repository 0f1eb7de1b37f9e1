/**
 * A JSON Schema (the subset extractors use) read into a typed tree: which fields are dates,
 * currencies, enums, tables (arrays of objects). Recognises `format: "date"`, a `<ns>:type`
 * keyword (`"service:type": "date" | "currency"`, the hosted service's convention), and the
 * `{ amount, iso_4217 }` object shape for currency.
 */
import type { JsonSchema } from './processor-config.ts';

/** The kinds of value the extractor knows how to produce. */
export type SchemaKind =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'currency'
  | 'enum'
  | 'object'
  | 'array'
  | 'unknown';

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

function types(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

function customType(schema: JsonSchema): string | undefined {
  for (const [key, value] of Object.entries(schema)) {
    if (key.endsWith(':type') && typeof value === 'string') return value;
  }
  return undefined;
}

function customDescriptions(schema: JsonSchema): string[] | undefined {
  for (const [key, value] of Object.entries(schema)) {
    if (key.endsWith(':descriptions') && Array.isArray(value)) {
      return value.map((v) => (typeof v === 'string' ? v : ''));
    }
  }
  return undefined;
}

function isCurrencyShape(schema: JsonSchema): boolean {
  const props = schema.properties;
  if (!props || typeof props !== 'object') return false;
  return 'amount' in props && ('iso_4217' in props || 'currency' in props);
}

/** Reads a JSON Schema into a {@link SchemaNode} tree. */
export function readSchema(schema: JsonSchema, name = ''): SchemaNode {
  const t = types(schema);
  const enumList = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  const nullable = t.includes('null') || (enumList?.includes(null) ?? false);
  const custom = customType(schema);
  const base = {
    nullable,
    schema,
    ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  };
  if (enumList) {
    const enumValues = enumList.filter(
      (v): v is string | number | boolean =>
        typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
    );
    const enumDescriptions = customDescriptions(schema);
    return { ...base, kind: 'enum', enumValues, ...(enumDescriptions ? { enumDescriptions } : {}) };
  }
  if (custom === 'currency' || (t.includes('object') && isCurrencyShape(schema))) {
    return { ...base, kind: 'currency' };
  }
  if (t.includes('object') || (t.length === 0 && schema.properties)) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    return {
      ...base,
      kind: 'object',
      properties: Object.entries(props).map(([key, child]) => ({
        name: key,
        required: required.has(key),
        node: readSchema(child, key),
      })),
    };
  }
  if (t.includes('array')) {
    const items =
      schema.items && typeof schema.items === 'object' ? (schema.items as JsonSchema) : {};
    return { ...base, kind: 'array', items: readSchema(items, name) };
  }
  if (t.includes('string')) {
    const isDate =
      custom === 'date' ||
      schema.format === 'date' ||
      schema.format === 'date-time' ||
      /(^|_|\b)date$/i.test(name);
    return { ...base, kind: isDate ? 'date' : 'string' };
  }
  if (t.includes('integer')) return { ...base, kind: 'integer' };
  if (t.includes('number')) return { ...base, kind: 'number' };
  if (t.includes('boolean')) return { ...base, kind: 'boolean' };
  return { ...base, kind: 'unknown' };
}
