import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TIER_UP_AFTER } from '../../src/compile/path-codegen.ts';
import { compileFormula, parseFormula } from '../../src/index.ts';
import { interpret } from '../reference-interpreter.ts';

// Leaves of every kind the generated fast paths must hand back to the general rules.
const leaf = fc.oneof(
  fc.integer({ min: -50, max: 50 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(null, undefined, 'text', '12', true, Number.NaN, Number.POSITIVE_INFINITY),
  fc.constant({ amount: 5, iso_4217: 'EUR' }),
  fc.constant({ amount: 7, iso_4217: 'USD' }),
  fc.constant(new Date('2024-01-02T00:00:00Z')),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
);
const item = fc.record({ v: leaf, w: fc.integer({ min: 0, max: 9 }) }, { requiredKeys: ['w'] });
const scope = fc.record(
  {
    items: fc.oneof(fc.array(item, { maxLength: 5 }), item, fc.constant(null)),
    orders: fc.array(fc.record({ items: fc.array(item, { maxLength: 3 }) }), { maxLength: 3 }),
    d: fc.record({ x: leaf }),
    x: leaf,
    odd: fc.constant(Object.assign(Object.create(null) as object, { constructor: 3, toString: 4 })),
  },
  { requiredKeys: [] },
);

const formulas = [
  'SUM(items.v)',
  'MIN(items.v)',
  'MAX(orders.items.v)',
  'AVERAGE(orders.items.w)',
  'SUM(x)',
  'SUM(d.x)',
  'items.v',
  'orders.items.w',
  'd.x',
  'x',
  'odd.constructor + odd.toString',
  'SUM(odd.constructor)',
  'items.constructor',
  'SUM(items.__proto__)',
];

test.each(formulas)(
  'tiered code for %s agrees with the reference interpreter before and after tier-up',
  (source) => {
    const compiled = compileFormula(source);
    const parsed = parseFormula(source);
    if (!compiled.ok || !parsed.ok) throw new Error(source);
    // A scope that is itself an array is projected like any array on a path.
    const arrayScope = [{ items: [{ v: 1, w: 2 }], x: 3, d: { x: 4 } }, { x: 5 }];
    const scopes = [arrayScope, ...fc.sample(scope, TIER_UP_AFTER * 4), arrayScope];
    for (const s of scopes) {
      const result = compiled.formula.evaluate(s);
      const ours = result.ok ? result : { ok: false, code: result.diagnostics[0]?.code };
      expect(ours, JSON.stringify(s)).toEqual(interpret(parsed.ast, s));
    }
  },
);
