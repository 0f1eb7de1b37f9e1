import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { fieldsToJsonSchema, withJsonSchema } from '../../src/processors/legacy-fields-schema.ts';
import { validateProcessorConfig } from '../../src/processors/validate-processor-config.ts';
import { createProcessorResources } from '../../src/resources/processor-resources.ts';
import { recordingContext } from './helpers.ts';

const FIELDS = [
  { id: 'f1', name: 'invoice_number', type: 'string', description: 'The number' },
  { id: 'f2', name: 'total', type: 'currency' },
  { id: 'f3', name: 'issued', type: 'date' },
  { id: 'f4', name: 'paid', type: 'boolean' },
  { id: 'f5', name: 'count', type: 'number' },
  {
    id: 'f6',
    name: 'kind',
    type: 'enum',
    enum: [
      { value: 'standard', description: 'A normal invoice' },
      { value: 'credit_note', description: 'A credit' },
    ],
  },
  {
    id: 'f7',
    name: 'line_items',
    type: 'array',
    schema: [
      { id: 'f8', name: 'sku', type: 'string' },
      { id: 'f9', name: 'amount', type: 'number' },
    ],
  },
  {
    id: 'f10',
    name: 'vendor',
    type: 'object',
    schema: [{ id: 'f11', name: 'name', type: 'string' }],
  },
  { id: 'f12', name: 'signed_by', type: 'signature' },
];

describe('fieldsToJsonSchema', () => {
  const schema = fieldsToJsonSchema(FIELDS);

  it('maps every legacy field type to nullable JSON Schema', () => {
    expect(schema).toMatchObject({
      type: 'object',
      required: FIELDS.map((f) => f.name),
      properties: {
        invoice_number: { type: ['string', 'null'], description: 'The number' },
        total: {
          type: ['object', 'null'],
          properties: {
            amount: { type: ['number', 'null'] },
            iso_4217: { type: ['string', 'null'] },
          },
        },
        issued: { type: ['string', 'null'], format: 'date' },
        paid: { type: ['boolean', 'null'] },
        count: { type: ['number', 'null'] },
        kind: {
          enum: ['standard', 'credit_note', null],
          'service:descriptions': ['A normal invoice', 'A credit'],
        },
        line_items: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { sku: {}, amount: {} },
            required: ['sku', 'amount'],
          },
        },
        vendor: { type: ['object', 'null'], properties: { name: { type: ['string', 'null'] } } },
        signed_by: { properties: { is_signed: { type: ['boolean', 'null'] } } },
      },
    });
  });

  it('gives a schema the extractor validation accepts, and that validates sample output', () => {
    expect(validateProcessorConfig('extractor', { schema })).toEqual([]);
    const validate = new Ajv({ strict: false }).compile(schema);
    const output = {
      invoice_number: 'INV-1',
      total: { amount: 12.5, iso_4217: 'EUR' },
      issued: '2026-01-31',
      paid: null,
      count: 3,
      kind: 'standard',
      line_items: [{ sku: 'A', amount: 1 }],
      vendor: { name: null },
      signed_by: null,
    };
    expect(validate(output)).toBe(true);
    expect(validate({ ...output, kind: 'other' })).toBe(false);
  });

  it('withJsonSchema leaves configs with a schema alone', () => {
    const config = { schema: { type: 'object' }, fields: [] };
    expect(withJsonSchema(config)).toBe(config);
    expect(withJsonSchema({ fields: FIELDS }).schema).toEqual(schema);
  });

  it('resolveProcessor gives executors a schema for extractors saved with fields', async () => {
    const rec = await recordingContext();
    const { extractors, resolution } = createProcessorResources(rec.ctx);
    const ex = await extractors.create({ name: 'Legacy', config: { fields: FIELDS } });
    expect(ex.config).not.toHaveProperty('schema');
    const resolved = await resolution.resolveProcessor('EXTRACT', { id: ex.id, version: 'draft' });
    expect(resolved).toEqual({ type: 'EXTRACT', fields: FIELDS, schema });
  });
});
