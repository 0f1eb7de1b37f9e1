import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { formatFormula, parseFormula } from '../src/index.ts';
import { astArbitrary, formulaArbitrary, stripSpans } from './arbitraries.ts';

test.prop([astArbitrary], { numRuns: 500 })(
  'parseFormula(formatFormula(ast)) gives back the tree',
  (ast) => {
    const text = formatFormula(ast);
    const parsed = parseFormula(text);
    if (!parsed.ok) {
      // Generated calls may have the wrong arity for a built-in: the only allowed failure.
      expect(parsed.diagnostics[0]?.code).toBe('FORMULA_WRONG_ARGUMENT_COUNT');
      return;
    }
    expect(stripSpans(parsed.ast)).toEqual(stripSpans(ast));
    expect(formatFormula(parsed.ast)).toBe(text);
  },
);

test.prop([fc.string({ unit: 'binary' })], { numRuns: 1000 })(
  'parseFormula is total on arbitrary text',
  (source) => {
    const result = parseFormula(source);
    if (!result.ok) {
      expect(result.diagnostics.length).toBeGreaterThan(0);
      for (const d of result.diagnostics) {
        expect(d.code).toMatch(/^FORMULA_/);
        expect(d.message.length).toBeGreaterThan(0);
        expect(d.span.start).toBeGreaterThanOrEqual(0);
        expect(d.span.end).toBeLessThanOrEqual(source.length);
        expect(d.span.start).toBeLessThanOrEqual(d.span.end);
      }
    }
  },
);

const formulaAlphabet = fc.constantFrom(
  ...'()+-*/^&=<>,."AND OR NOT TRUE NULL SUM a.b 1 2.5e3 ß'.split(''),
  'AND',
  'OR',
  'NOT',
  'SUM(',
  'IF(',
  'x.y',
  '""',
  ' ',
);

test.prop([fc.array(formulaAlphabet, { maxLength: 30 }).map((parts) => parts.join(''))], {
  numRuns: 1000,
})(
  'parseFormula is total on formula-like text, and printing what parses is a fixpoint',
  (source) => {
    const result = parseFormula(source);
    if (result.ok) {
      const text = formatFormula(result.ast);
      const again = parseFormula(text);
      expect(again.ok).toBe(true);
      if (again.ok) {
        expect(stripSpans(again.ast)).toEqual(stripSpans(result.ast));
        expect(formatFormula(again.ast)).toBe(text);
      }
    }
  },
);

test.prop([formulaArbitrary], { numRuns: 300 })('generated formulas parse', (source) => {
  expect(parseFormula(source).ok).toBe(true);
});

test('very deep nesting is a diagnostic, not a stack overflow', () => {
  const result = parseFormula(`${'-'.repeat(100_000)}1`);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.diagnostics[0]?.code).toBe('FORMULA_TOO_DEEP');
});
