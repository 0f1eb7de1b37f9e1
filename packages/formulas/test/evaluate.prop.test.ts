import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  compileFormula,
  evaluateFormula,
  evaluateRules,
  type FormulaScope,
  parseFormula,
} from '../src/index.ts';
import { formulaArbitrary, scopeArbitrary } from './arbitraries.ts';
import { interpret, type Outcome } from './reference-interpreter.ts';

function outcome(source: string, scope: FormulaScope): Outcome {
  const compiled = compileFormula(source);
  if (!compiled.ok) throw new Error(`does not parse: ${source}`);
  const result = compiled.formula.evaluate(scope);
  return result.ok ? result : { ok: false, code: result.diagnostics[0]?.code ?? '' };
}

test.prop([formulaArbitrary, scopeArbitrary], { numRuns: 1500 })(
  'the compiled evaluator agrees with the reference interpreter',
  (source, scope) => {
    const parsed = parseFormula(source);
    if (!parsed.ok) throw new Error(source);
    expect(outcome(source, scope)).toEqual(interpret(parsed.ast, scope));
  },
);

const word = fc.string({
  unit: fc.constantFrom('a', 'B', 'c', 'ß', 'S', 'İ', 'i', 'ı', 'σ', 'Σ', 'ς', 'ﬁ', ' '),
  maxLength: 5,
});
const words = fc.array(fc.option(word, { nil: null }), { maxLength: 6 });

function value(source: string, scope: FormulaScope): unknown {
  const result = evaluateFormula(source, scope);
  if (!result.ok) throw new Error(`${source}: ${result.error}`);
  return result.value;
}

test.prop([words, fc.array(fc.option(word, { nil: null }), { minLength: 1, maxLength: 4 })])(
  'INCLUDESANY is the OR of INCLUDES over the values',
  (a, needles) => {
    const scope: Record<string, unknown> = { a, v: needles };
    needles.forEach((needle, i) => {
      scope[`n${i}`] = needle;
    });
    const separate = value(`INCLUDESANY(a, ${needles.map((_, i) => `n${i}`).join(', ')})`, scope);
    const ors = value(needles.map((_, i) => `INCLUDES(a, n${i})`).join(' OR '), scope);
    expect(separate).toBe(ors);
    expect(value('INCLUDESANY(a, v)', scope)).toBe(ors);
  },
);

test.prop([words, word])('CONTAINS implies INCLUDES', (a, s) => {
  const scope = { a, s };
  fc.pre(value('CONTAINS(a, s)', scope) === true);
  expect(value('INCLUDES(a, s)', scope)).toBe(true);
});

const wordsAndPermutation = words.chain((a) =>
  fc.tuple(fc.constant(a), fc.shuffledSubarray(a, { minLength: a.length, maxLength: a.length })),
);

test.prop([wordsAndPermutation, word])(
  'INCLUDES ignores the order of the array',
  ([a, shuffled], s) => {
    expect(value('INCLUDES(a, s)', { a: shuffled, s })).toBe(value('INCLUDES(a, s)', { a, s }));
  },
);

test.prop([words, word])('INCLUDES ignores case (upper- or lower-cased text and array)', (a, s) => {
  const base = value('INCLUDES(a, s)', { a, s });
  expect(value('INCLUDES(a, UPPER(s))', { a, s })).toBe(base);
  expect(value('INCLUDES(a, LOWER(s))', { a, s })).toBe(base);
  expect(value('INCLUDES(UPPER(a), s)', { a, s })).toBe(base);
});

test.prop([formulaArbitrary, formulaArbitrary, scopeArbitrary], { numRuns: 300 })(
  'IF(TRUE, a, b) = a, errors included',
  (a, b, scope) => {
    expect(outcome(`IF(TRUE, ${a}, ${b})`, scope)).toEqual(outcome(a, scope));
    expect(outcome(`IF(FALSE, ${b}, ${a})`, scope)).toEqual(outcome(a, scope));
  },
);

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

test.prop([finite, finite])('+ and * commute on finite numbers', (a, b) => {
  for (const op of ['+', '*']) {
    const ab = evaluateFormula(`a ${op} b`, { a, b });
    const ba = evaluateFormula(`b ${op} a`, { a, b });
    expect(ab.ok).toBe(ba.ok);
    if (ab.ok && ba.ok) expect(Object.is(ab.value, ba.value) || ab.value === ba.value).toBe(true);
  }
});

test.prop([fc.array(fc.integer({ min: -1e6, max: 1e6 }), { maxLength: 20 })])(
  'SUM over a path equals the plain-JS sum (integers)',
  (amounts) => {
    const scope = {
      x: {
        items: amounts.map((amount) => ({ amount })),
        total: amounts.reduce((s, v) => s + v, 0),
      },
    };
    expect(value('SUM(x.items.amount)', scope)).toBe(scope.x.total);
    expect(value('SUM(x.items.amount) = x.total', scope)).toBe(true);
  },
);

test.prop([fc.array(formulaArbitrary, { minLength: 1, maxLength: 4 }), scopeArbitrary], {
  numRuns: 300,
})('RuleResult shape invariants', (formulas, scope) => {
  const result = evaluateRules(
    formulas.map((formula, i) => ({ name: `r${i}`, formula })),
    scope,
  );
  expect(result.rules).toHaveLength(formulas.length);
  expect(result.allPassed).toBe(result.rules.every((r) => r.valid));
  result.rules.forEach((rule, i) => {
    expect(rule.name).toBe(`r${i}`);
    expect(rule.failureReason === undefined).toBe(rule.valid);
    if (rule.validArray !== undefined) expect(rule.valid).toBe(rule.validArray.every((v) => v));
    const errored = rule.failureReason === 'PARSE_ERROR' || rule.failureReason === 'VALUE_ERROR';
    expect(typeof rule.error === 'string').toBe(errored);
    if (rule.failureReason === 'RULE_FAILED') expect(rule.error).toBeUndefined();
    expect(
      Object.keys(rule).every((k) =>
        ['name', 'valid', 'validArray', 'failureReason', 'error'].includes(k),
      ),
    ).toBe(true);
  });
});
