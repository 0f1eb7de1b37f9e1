import type { JsonObject, JsonValue } from '@docflow/storage';
import { asArray, asRecord, asString } from '../definition/step-view.ts';

const nullable = (type: string): JsonValue => [type, 'null'];

function fieldSchema(field: Readonly<Record<string, unknown>>): JsonObject {
  const description = asString(field.description);
  const described = (schema: JsonObject): JsonObject =>
    description === undefined ? schema : { ...schema, description };
  switch (field.type) {
    case 'number':
      return described({ type: nullable('number') });
    case 'boolean':
      return described({ type: nullable('boolean') });
    case 'date':
      return described({ type: nullable('string'), format: 'date' });
    case 'currency':
      return described({
        type: nullable('object'),
        properties: {
          amount: { type: nullable('number') },
          iso_4217: { type: nullable('string') },
        },
        required: ['amount', 'iso_4217'],
      });
    case 'enum': {
      const options = asArray(field.enum).map((o) => asRecord(o));
      return described({
        enum: [...options.map((o) => asString(o?.value) ?? ''), null],
        'service:descriptions': options.map((o) => asString(o?.description) ?? ''),
      });
    }
    case 'signature':
      return described({
        type: nullable('object'),
        properties: {
          printed_name: { type: nullable('string') },
          signature_date: { type: nullable('string'), format: 'date' },
          is_signed: { type: nullable('boolean') },
          title_or_role: { type: nullable('string') },
        },
      });
    case 'object':
      return described({ ...objectSchema(field.schema), type: nullable('object') });
    case 'array':
      return described({ type: nullable('array'), items: objectSchema(field.schema) });
    default:
      return described({ type: nullable('string') });
  }
}

function objectSchema(fields: unknown): JsonObject {
  const properties: Record<string, JsonObject> = {};
  for (const raw of asArray(fields)) {
    const field = asRecord(raw);
    const name = asString(field?.name);
    if (field && name !== undefined) properties[name] = fieldSchema(field);
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

/**
 * The JSON Schema equivalent of a deprecated `fields` list (the interface's ExtractionField), so that
 * executors, which read `schema`, also run extractors saved in the legacy format. Every field is
 * nullable (a missing value is null); currencies are `{ amount, iso_4217 }`, dates
 * `format: "date"`, enums list their values (descriptions under `service:descriptions`),
 * signatures `{ printed_name, signature_date, is_signed, title_or_role }`.
 *
 * @example
 * fieldsToJsonSchema([{ id: 'f1', name: 'total', type: 'currency' }]);
 * // { type: 'object', properties: { total: { type: ['object', 'null'], … } }, required: ['total'] }
 */
export function fieldsToJsonSchema(fields: unknown): JsonObject {
  return objectSchema(fields);
}

/** An extractor config with a `schema`, derived from `fields` when only those are given. */
export function withJsonSchema(config: JsonObject): JsonObject {
  if (config.schema !== undefined || config.fields === undefined) return config;
  return { ...config, schema: fieldsToJsonSchema(config.fields) };
}
