import { describe, expect, test } from 'vitest';
import {
  compileFormula,
  defineFunction,
  evaluateFormula,
  evaluateFormulaAsync,
  evaluateRules,
  evaluateRulesAsync,
  FormulaErrorCode,
  type FormulaJudge,
  isFormulaError,
} from '../src/index.ts';

const scope = {
  extract1: {
    total: 30,
    vendor: 'Albertsons Inc',
    line_items: [{ amount: 10 }, { amount: 20 }],
    address: '123 Main Street',
  },
  classify1: 'invoice',
};

describe('evaluateRules', () => {
  test('returns the interface rule results and allPassed', () => {
    const result = evaluateRules(
      [
        { name: 'sum', formula: 'SUM(extract1.line_items.amount) = extract1.total' },
        { name: 'items', formula: 'extract1.line_items.amount > 15', description: 'each item' },
        { name: 'broken', formula: 'SUM(' },
        { name: 'div', formula: 'extract1.total / 0 > 1' },
      ],
      scope,
    );
    expect(result.allPassed).toBe(false);
    expect(result.rules[0]).toEqual({ name: 'sum', valid: true });
    expect(result.rules[1]).toEqual({
      name: 'items',
      valid: false,
      validArray: [false, true],
      failureReason: 'RULE_FAILED',
    });
    expect(result.rules[2]).toMatchObject({
      name: 'broken',
      valid: false,
      failureReason: 'PARSE_ERROR',
    });
    expect(result.rules[2]?.error).toMatch(/column 5/);
    expect(result.rules[3]).toMatchObject({
      name: 'div',
      valid: false,
      failureReason: 'VALUE_ERROR',
    });
    expect(result.rules[3]?.error).toMatch(/^'\/' at columns 1-18: division by zero$/);
  });

  test('an empty rule set passes', () => {
    expect(evaluateRules([], scope)).toEqual({ rules: [], allPassed: true });
  });

  test('a rule without a text formula is a PARSE_ERROR naming its path', () => {
    const rules = [{ name: 'x', formula: 42 }] as unknown as { name: string; formula: string }[];
    const [rule] = evaluateRules(rules, scope).rules;
    expect(rule).toMatchObject({
      valid: false,
      failureReason: 'PARSE_ERROR',
      error: 'rules[0].formula must be text',
    });
  });

  test('rules that are not an array throw FORMULA_INVALID_RULES', () => {
    expect(() => evaluateRules({} as never, scope)).toThrow(/rules must be an array/);
  });

  test('a VALUE_ERROR names the function and its position', () => {
    const [rule] = evaluateRules([{ name: 'r', formula: 'LEN(extract1) > 1' }], scope).rules;
    expect(rule?.error).toBe('LEN at columns 1-13: argument 1 must be text, got an object');
  });
});

describe('host functions', () => {
  const vat = defineFunction({
    name: 'vatRate',
    minArgs: 1,
    maxArgs: 1,
    call: ([country]) => ({ DE: 0.19, FR: 0.2 })[String(country)] ?? null,
  });

  test('are called by name, case-insensitively, and broadcast over arrays', () => {
    expect(evaluateFormula('VATRATE("DE") = 0.19', {}, { functions: [vat] })).toEqual({
      ok: true,
      value: true,
    });
    expect(evaluateFormula('vatrate(c)', { c: ['FR', 'XX'] }, { functions: [vat] })).toEqual({
      ok: true,
      value: [0.2, null],
    });
  });

  test('a missing host function is a VALUE_ERROR naming it', () => {
    const result = evaluateFormula('VATRATE("DE")', {});
    expect(result).toMatchObject({ ok: false, failureReason: 'VALUE_ERROR' });
    if (!result.ok) expect(result.error).toMatch(/^VATRATE at columns 1-13: is not a built-in/);
  });

  test('wrong argument counts, throwing and bad results are VALUE_ERRORs', () => {
    const boom = defineFunction({
      name: 'BOOM',
      call: () => {
        throw new Error('kaput');
      },
    });
    const bad = defineFunction({ name: 'BAD', call: () => Number.NaN });
    const options = { functions: [vat, boom, bad] };
    expect(evaluateFormula('VATRATE()', {}, options)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_INVALID_ARGUMENT' }],
    });
    expect(evaluateFormula('BOOM()', {}, options)).toMatchObject({
      ok: false,
      error: 'BOOM at columns 1-6: failed: kaput',
    });
    expect(evaluateFormula('BAD()', {}, options)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_HOST_FUNCTION_FAILED' }],
    });
  });

  test('NULL arguments propagate unless nulls is "pass"', () => {
    let calls = 0;
    const count = defineFunction({ name: 'COUNTER', call: () => ++calls });
    const seesNull = defineFunction({ name: 'SEES', nulls: 'pass', call: ([v]) => v === null });
    expect(evaluateFormula('COUNTER(NULL)', {}, { functions: [count] })).toEqual({
      ok: true,
      value: null,
    });
    expect(calls).toBe(0);
    expect(evaluateFormula('SEES(NULL)', {}, { functions: [seesNull] })).toEqual({
      ok: true,
      value: true,
    });
  });

  test('bad definitions and conflicts throw FormulaErrors naming the field', () => {
    expect(() => defineFunction({ name: '1X', call: () => 1 })).toThrow(/name must be/);
    expect(() => defineFunction({ name: 'X', call: 5 as never })).toThrow(
      /call of X must be a function/,
    );
    expect(() => defineFunction({ name: 'X', minArgs: 2, maxArgs: 1, call: () => 1 })).toThrow(
      /maxArgs of X/,
    );
    const sum = defineFunction({ name: 'sum', call: () => 1 });
    try {
      evaluateFormula('1', {}, { functions: [sum] });
      expect.unreachable();
    } catch (error) {
      expect(isFormulaError(error, FormulaErrorCode.FunctionConflict)).toBe(true);
      expect((error as Error).message).toBe(
        'options.functions[0] (SUM) has the name of a built-in function',
      );
    }
    expect(() => evaluateFormula('1', {}, { functions: [vat, vat] })).toThrow(/defined twice/);
    expect(() => evaluateFormula('1', {}, { functions: { vat } as never })).toThrow(
      'options.functions must be an array of functions made by defineFunction',
    );
    expect(() => evaluateFormula('1', {}, { functions: [{ name: 'X' } as never] })).toThrow(
      'options.functions[0] is not a function made by defineFunction',
    );
  });
});

describe('async functions and LLMJUDGE', () => {
  const judge: FormulaJudge = async (a, b) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return String(a).toLowerCase().startsWith(String(b).toLowerCase().slice(0, 3));
  };

  test('LLMJUDGE calls the injected judge in evaluateRulesAsync', async () => {
    const result = await evaluateRulesAsync(
      [
        { name: 'addr', formula: 'LLMJUDGE(extract1.address, "123 Main St")' },
        { name: 'plain', formula: 'extract1.total = 30' },
        { name: 'no', formula: 'LLMJUDGE(extract1.address, "Elm Road")' },
      ],
      scope,
      { judge },
    );
    expect(result.rules).toEqual([
      { name: 'addr', valid: true },
      { name: 'plain', valid: true },
      { name: 'no', valid: false, failureReason: 'RULE_FAILED' },
    ]);
  });

  test('calls found in one pass run concurrently and each call runs once', async () => {
    const seen: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const counting: FormulaJudge = async (a) => {
      seen.push(String(a));
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return true;
    };
    const result = await evaluateFormulaAsync(
      'AND(LLMJUDGE(x, "a"))',
      { x: ['p', 'q', 'r'] },
      { judge: counting },
    );
    expect(result).toEqual({ ok: true, value: true });
    expect(seen.sort()).toEqual(['p', 'q', 'r']);
    expect(maxRunning).toBe(3);
  });

  test('only the taken branch is judged, after replay', async () => {
    const seen: unknown[] = [];
    const recording: FormulaJudge = (a) => {
      seen.push(a);
      return a === 'yes';
    };
    const result = await evaluateFormulaAsync(
      'IF(LLMJUDGE("yes", 1), LLMJUDGE("no", 2), LLMJUDGE("other", 3))',
      {},
      { judge: recording },
    );
    expect(result).toEqual({ ok: true, value: false });
    expect(seen).toEqual(['yes', 'no']);
  });

  test('without a judge LLMJUDGE is a VALUE_ERROR; synchronously it asks for the async API', async () => {
    const [missing] = (await evaluateRulesAsync([{ name: 'j', formula: 'LLMJUDGE("a", "b")' }], {}))
      .rules;
    expect(missing).toMatchObject({ failureReason: 'VALUE_ERROR' });
    expect(missing?.error).toMatch(/pass options.judge/);
    const [sync] = evaluateRules(
      [{ name: 'j', formula: 'LLMJUDGE("a", "b")' }],
      {},
      { judge },
    ).rules;
    expect(sync?.error).toMatch(/evaluateRulesAsync/);
  });

  test('a rejecting judge is a VALUE_ERROR; an aborted signal rejects', async () => {
    const failing: FormulaJudge = () => Promise.reject(new Error('model down'));
    const [rule] = (
      await evaluateRulesAsync(
        [{ name: 'j', formula: 'LLMJUDGE("a", "b")' }],
        {},
        { judge: failing },
      )
    ).rules;
    expect(rule?.error).toBe('LLMJUDGE at columns 1-18: failed: model down');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      evaluateRulesAsync(
        [{ name: 'j', formula: 'LLMJUDGE("a", "b")' }],
        {},
        { judge, signal: controller.signal },
      ),
    ).rejects.toThrow('stop');
  });

  test('async host functions work through compileFormula().evaluateAsync', async () => {
    const lookup = defineFunction({
      name: 'LOOKUP',
      async: true,
      call: async ([id]) => `customer ${String(id)}`,
    });
    const compiled = compileFormula('LOOKUP(7) & "!"', { functions: [lookup] });
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.formula.isAsync).toBe(true);
    expect(await compiled.formula.evaluateAsync({})).toEqual({ ok: true, value: 'customer 7!' });
    expect(compiled.formula.evaluate({})).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_ASYNC_IN_SYNC' }],
    });
  });
});

describe('compileFormula', () => {
  test('reports dependencies and evaluates many scopes', () => {
    const compiled = compileFormula(
      'IF(classify1 = "invoice", SUM(extract1.line_items.amount) = extract1.total, TRUE)',
    );
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.formula.dependencies).toEqual([
      'classify1',
      'extract1.line_items.amount',
      'extract1.total',
    ]);
    expect(compiled.formula.isAsync).toBe(false);
    expect(compiled.formula.evaluate(scope)).toEqual({ ok: true, value: true });
    expect(compiled.formula.evaluate({ classify1: 'receipt' })).toEqual({ ok: true, value: true });
    expect(
      compiled.formula.evaluate({ classify1: 'invoice', extract1: { total: 1, line_items: [] } }),
    ).toEqual({ ok: true, value: false });
  });

  test('returns diagnostics for a formula that does not parse', () => {
    expect(compileFormula('1 +')).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_UNEXPECTED_END' }],
    });
  });

  test('TODAY uses the injected clock', () => {
    const now = () => new Date('2030-06-01T23:59:00Z');
    expect(evaluateFormula('TEXT(TODAY(), "yyyy-mm-dd")', {}, { now })).toEqual({
      ok: true,
      value: '2030-06-01',
    });
  });

  test('scope values that are Dates read as ISO text', () => {
    expect(evaluateFormula('YEAR(d)', { d: new Date('2024-05-06T00:00:00Z') })).toEqual({
      ok: true,
      value: 2024,
    });
  });
});
