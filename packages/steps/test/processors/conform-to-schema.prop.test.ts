import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformToSchema } from '../../src/processors/conform-to-schema.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'total', 'items'],
  properties: {
    id: { type: ['string', 'null'] },
    count: { type: 'integer' },
    date: { type: ['string', 'null'], format: 'date' },
    status: { type: ['string', 'null'], enum: ['open', 'paid', null] },
    flag: { type: ['boolean', 'null'] },
    total: {
      type: 'object',
      required: ['amount', 'iso_4217'],
      properties: { amount: { type: ['number', 'null'] }, iso_4217: { type: ['string', 'null'] } },
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, qty: { type: ['number', 'null'] } },
      },
    },
  },
};

const validate = new Ajv({ strict: false, validateFormats: false }).compile(schema);

describe('conformToSchema', () => {
  it('repairs what it can: coerces, nulls, drops unknown keys and bad array items', () => {
    const result = conformToSchema(
      {
        id: 17,
        count: '3.0',
        date: '03/15/2024',
        status: 'PAID',
        flag: 'yes',
        total: '$12.00',
        items: [{ name: 'a', qty: '2' }, { name: '' }],
        extra: true,
      },
      schema,
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        id: '17',
        count: 3,
        date: '2024-03-15',
        status: 'paid',
        flag: true,
        total: { amount: 12, iso_4217: 'USD' },
        items: [{ name: 'a', qty: 2 }],
      },
    });
  });

  it('fails when a required non-nullable value cannot be made valid', () => {
    const strict = {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string', pattern: '^[A-Z]+$' } },
    };
    const result = conformToSchema({ code: 'abc' }, strict);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatch(/\/code/);
  });

  it('never returns a value that does not validate (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.dictionary(fc.string(), fc.anything()), (anything, record) => {
        for (const input of [anything, record, { ...record, items: anything, total: anything }]) {
          const result = conformToSchema(input, schema);
          if (result.ok) expect(validate(result.value)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
