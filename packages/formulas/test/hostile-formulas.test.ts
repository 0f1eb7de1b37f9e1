/**
 * Formulas written or fed by someone hostile (issue 21): each attack ends as a VALUE_ERROR that
 * names the function or operator, through the limits themselves (a code, never a timing).
 */
import { describe, expect, test } from 'vitest';
import {
  defineFunction,
  evaluateFormula,
  evaluateRulesAsync,
  FormulaErrorCode,
  type FormulaEvaluation,
  type FormulaOptions,
  type FormulaScope,
} from '../src/index.ts';

function failure(
  source: string,
  scope: FormulaScope = {},
  options?: FormulaOptions,
): { code: string; error: string } {
  const result: FormulaEvaluation = evaluateFormula(source, scope, options);
  if (result.ok)
    throw new Error(`expected a VALUE_ERROR, got ${String(result.value).slice(0, 80)}`);
  expect(result.failureReason).toBe('VALUE_ERROR');
  return { code: result.diagnostics[0]?.code ?? '', error: result.error };
}

function nested(depth: number, inner: string, wrap: (x: string) => string): string {
  let source = inner;
  for (let i = 0; i < depth; i++) source = wrap(source);
  return source;
}

describe('regular expressions run on RE2 (linear time)', () => {
  test('REGEXMATCH(metadata.name, "^(\\w+\\s?)*$") on a name that backtracking needs 2^n steps for ends at once', () => {
    // 30 word characters and a character that cannot match: V8's backtracking engine tries every
    // way to split the word (about 2^30 of them) before answering FALSE.
    const scope = { metadata: { name: `${'a'.repeat(30)}!` } };
    expect(evaluateFormula('REGEXMATCH(metadata.name, "^(\\w+\\s?)*$")', scope)).toEqual({
      ok: true,
      value: false,
    });
    const long = { metadata: { name: `${'word '.repeat(200)}!` } };
    expect(evaluateFormula('REGEXMATCH(metadata.name, "^(\\w+\\s?)*$")', long)).toEqual({
      ok: true,
      value: false,
    });
  });

  test('SEARCH wildcards run on RE2 too: many stars against a long text', () => {
    // As a backtracking regex, five lazy stars over 500 characters is O(n^5).
    const scope = { x: 'a'.repeat(500) };
    const { code, error } = failure('SEARCH("a*a*a*a*a*b", x)', scope);
    expect(code).toBe(FormulaErrorCode.NotFound);
    expect(error).toMatch(/^SEARCH at columns 1-24: /);
    expect(evaluateFormula('SEARCH("~*b?d", "a*bcd")', {})).toEqual({ ok: true, value: 2 });
  });

  test.each([
    ['a backreference', '(a)\\1', /backreferences/],
    ['a lookahead', 'a(?=b)', /lookahead and lookbehind/],
    ['a negative lookbehind', '(?<!a)b', /lookahead and lookbehind/],
    ['a pattern that does not parse', 'a)', /unexpected \)/],
  ])('%s is a VALUE_ERROR naming REGEXMATCH', (_, pattern, reason) => {
    const { code, error } = failure(`REGEXMATCH("ab", "${pattern.replaceAll('"', '""')}")`);
    expect(code).toBe(FormulaErrorCode.InvalidArgument);
    expect(error).toMatch(
      /^REGEXMATCH at columns 1-\d+: the pattern is not a valid RE2 regular expression/,
    );
    expect(error).toMatch(reason);
  });
});

describe('text results are bounded at 32,767 characters (a cell in Excel)', () => {
  test('SUBSTITUTE nested 7 deep, each multiplying the text by ten, stops at the level that passes the bound', () => {
    // 10 characters become 10^8: the whole string would be 200 MB.
    const source = nested(7, 'x', (inner) => `SUBSTITUTE(${inner}, "a", "aaaaaaaaaa")`);
    const { code, error } = failure(`LEN(${source})`, { x: 'a'.repeat(10) });
    expect(code).toBe(FormulaErrorCode.TextTooLong);
    expect(error).toMatch(
      /^SUBSTITUTE at columns \d+-\d+: the result would be 100,000 characters long, more than the 32,767/,
    );
  });

  test('& doubling a text, CONCAT of an array, and UPPER of a long field', () => {
    const x = 'a'.repeat(10_000);
    expect(failure('LEN(x & x & x & x)', { x }).error).toMatch(
      /^'&' at columns \d+-\d+: the result would be 40,000/,
    );
    expect(failure('CONCAT(items)', { items: Array(40).fill('a'.repeat(1_000)) })).toEqual({
      code: FormulaErrorCode.TextTooLong,
      error: expect.stringMatching(/^CONCAT at columns 1-13: the result would be 40,000/),
    });
    const field = 'b'.repeat(40_000);
    // A long input can be read; a long result cannot be made.
    expect(evaluateFormula('LEN(field) & "|" & LEFT(field, 3)', { field })).toEqual({
      ok: true,
      value: '40000|bbb',
    });
    expect(failure('UPPER(field)', { field }).code).toBe(FormulaErrorCode.TextTooLong);
  });

  test('a host function returning a long text or a long array', () => {
    const functions = [
      defineFunction({ name: 'BIGTEXT', call: () => 'x'.repeat(40_000) }),
      defineFunction({ name: 'BIGARRAY', call: () => Array(200_000).fill(1) }),
    ];
    expect(failure('BIGTEXT()', {}, { functions })).toEqual({
      code: FormulaErrorCode.TextTooLong,
      error: expect.stringMatching(/^BIGTEXT at columns 1-9: /),
    });
    expect(failure('BIGARRAY()', {}, { functions })).toEqual({
      code: FormulaErrorCode.ArrayTooLong,
      error: expect.stringMatching(
        /^BIGARRAY at columns 1-10: an array of 200,000 items is longer than the 100,000/,
      ),
    });
  });
});

describe('arrays are bounded at 100,000 items', () => {
  test('an operator, a projection and an aggregate over 200,000 items', () => {
    const scope = { items: Array.from({ length: 200_000 }, (_, i) => ({ a: i })) };
    expect(failure('items.a > 0', scope).error).toMatch(
      /^items\.a at columns 1-7: an array of 200,000 items/,
    );
    expect(failure('COUNTA(nums)', { nums: Array(200_000).fill(1) }).code).toBe(
      FormulaErrorCode.ArrayTooLong,
    );
  });
});

describe('an evaluation budget bounds the work of one evaluation', () => {
  test('FUZZYMATCH of two 30,000-character texts (900 million Levenshtein cells)', () => {
    const scope = { a: 'ab'.repeat(15_000), b: 'ba'.repeat(15_000) };
    const { code, error } = failure('FUZZYMATCH(a, b, 0.5)', scope);
    expect(code).toBe(FormulaErrorCode.BudgetExceeded);
    expect(error).toMatch(
      /^FUZZYMATCH at columns 1-21: the evaluation needs more work than its budget of 500,000 units/,
    );
  });

  test('UNIQUE of 60,000 distinct values (quadratic) and a long chain of operators over 60,000 items', () => {
    const nums = Array.from({ length: 60_000 }, (_, i) => i);
    expect(failure('COUNTA(UNIQUE(nums))', { nums }).error).toMatch(/^UNIQUE at columns 8-19: /);
    const chain = Array(20).fill('nums').join(' + ');
    expect(failure(`SUM(${chain})`, { nums }).code).toBe(FormulaErrorCode.BudgetExceeded);
    // The same work under a larger budget.
    expect(evaluateFormula(`SUM(${chain})`, { nums }, { workBudget: 5_000_000 })).toEqual({
      ok: true,
      value: 20 * ((59_999 * 60_000) / 2),
    });
  });

  test('REGEXMATCH is charged per character and program instruction', () => {
    const scope = { text: 'ab'.repeat(16_000) };
    expect(failure('REGEXMATCH(text, "[ab]*a[ab]{20}$")', scope).code).toBe(
      FormulaErrorCode.BudgetExceeded,
    );
    expect(evaluateFormula('REGEXMATCH(LEFT(text, 200), "[ab]*a[ab]{20}$")', scope)).toEqual({
      ok: true,
      value: false,
    });
  });

  test('ordinary rules over 5,000 line items stay well inside the budget', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => ({ qty: 2, price: i, amount: 2 * i }));
    const scope = { extract1: { items, total: 5_000 * 4_999 } };
    expect(
      evaluateFormula(
        'AND(items.qty * items.price = items.amount) AND SUM(items.amount) = total AND COUNTA(UNIQUE(items.qty)) = 1',
        scope.extract1,
      ),
    ).toEqual({ ok: true, value: true });
  });

  test('workBudget must be a positive number', () => {
    expect(() => evaluateFormula('1', {}, { workBudget: 0 })).toThrow(
      expect.objectContaining({ code: FormulaErrorCode.InvalidOptions }),
    );
    expect(() => evaluateFormula('1', {}, { workBudget: Number.NaN })).toThrow(/workBudget/);
  });

  test('evaluateRulesAsync lets the event loop turn between rules once they did a quarter budget of work', async () => {
    const order: string[] = [];
    const functions = [
      defineFunction({
        name: 'MARK',
        call: ([label]) => {
          order.push(String(label));
          return true;
        },
      }),
    ];
    const nums = Array.from({ length: 60_000 }, (_, i) => i);
    // Each rule spends about 360,000 units (three additions over 60,000 numbers).
    const heavy = (label: string) => ({
      name: label,
      formula: `MARK("${label}") AND SUM(nums + nums + nums + nums) > 0`,
    });
    setImmediate(() => order.push('turn'));
    const result = await evaluateRulesAsync(
      [heavy('1'), heavy('2'), heavy('3')],
      { nums },
      { functions },
    );
    expect(result.allPassed).toBe(true);
    expect(order).toEqual(['1', 'turn', '2', '3']);
  });
});
