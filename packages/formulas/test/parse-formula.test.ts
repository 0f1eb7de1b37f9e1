import { describe, expect, test } from 'vitest';
import {
  evaluateFormula,
  evaluateRules,
  formatFormula,
  parseFormula,
  tokenize,
} from '../src/index.ts';

function canonical(source: string): string {
  const parsed = parseFormula(source);
  if (!parsed.ok) throw new Error(parsed.diagnostics[0]?.message);
  return formatFormula(parsed.ast);
}

describe('parseFormula', () => {
  test('builds a tree with spans', () => {
    const parsed = parseFormula('SUM(a.b) = x');
    expect(parsed).toEqual({
      ok: true,
      ast: {
        kind: 'binary',
        operator: '=',
        span: { start: 0, end: 12 },
        left: {
          kind: 'call',
          name: 'SUM',
          span: { start: 0, end: 8 },
          args: [{ kind: 'path', segments: ['a', 'b'], span: { start: 4, end: 7 } }],
        },
        right: { kind: 'path', segments: ['x'], span: { start: 11, end: 12 } },
      },
    });
  });

  test('folds a minus sign into a number literal, not into other operands', () => {
    expect(parseFormula('-2')).toMatchObject({ ok: true, ast: { kind: 'number', value: -2 } });
    expect(parseFormula('-x')).toMatchObject({ ok: true, ast: { kind: 'unary', operator: '-' } });
    expect(parseFormula('1 - 2')).toMatchObject({
      ok: true,
      ast: { kind: 'binary', operator: '-' },
    });
  });

  test('follows Excel precedence with the infix words below comparisons', () => {
    expect(canonical('1+2*3^2')).toBe('1 + 2 * 3 ^ 2');
    expect(canonical('(1+2)*3')).toBe('(1 + 2) * 3');
    expect(canonical('a & b = c')).toBe('a & b = c');
    expect(canonical('(a & b) = c')).toBe('a & b = c');
    expect(canonical('a & (b = c)')).toBe('a & (b = c)');
    expect(canonical('a or b and not c = d')).toBe('a OR b AND NOT c = d');
    expect(canonical('(a OR b) AND c')).toBe('(a OR b) AND c');
    expect(canonical('NOT(a) = b')).toBe('(NOT a) = b');
    expect(canonical('NOT (a OR b)')).toBe('NOT(a OR b)');
    expect(canonical('2^3^2')).toBe('2 ^ 3 ^ 2');
    expect(canonical('2^(3^2)')).toBe('2 ^ (3 ^ 2)');
    expect(canonical('-(2^2)')).toBe('-(2 ^ 2)');
    expect(canonical('a - (b - c)')).toBe('a - (b - c)');
    expect(canonical('=sum( 1 ,2 )')).toBe('SUM(1, 2)');
    expect(canonical('"a""b"')).toBe('"a""b"');
  });

  test('diagnostics carry the span of the problem', () => {
    expect(parseFormula('1 + )')).toEqual({
      ok: false,
      diagnostics: [
        {
          code: 'FORMULA_UNEXPECTED_TOKEN',
          message: "Expected a value but found ')' at column 5",
          span: { start: 4, end: 5 },
        },
      ],
    });
    expect(parseFormula('LEFT()')).toMatchObject({
      ok: false,
      diagnostics: [
        {
          code: 'FORMULA_WRONG_ARGUMENT_COUNT',
          message: 'LEFT takes 1 to 2 arguments but was given 0 at column 1',
          span: { start: 0, end: 6 },
        },
      ],
    });
    expect(parseFormula('x = “a”')).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_UNEXPECTED_CHARACTER', span: { start: 4, end: 5 } }],
    });
  });

  test('never throws on values that are not text', () => {
    expect(parseFormula(undefined as never)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_EMPTY' }],
    });
  });
});

describe('tokenize', () => {
  test('reads Unicode names, dotted segments starting with digits, and exponents', () => {
    const lexed = tokenize('données.1a + 1.5e-3');
    expect(lexed.ok && lexed.tokens.map((t) => `${t.type}:${t.text}`)).toEqual([
      'identifier:données',
      '.:.',
      'segment:1a',
      'operator:+',
      'number:1.5e-3',
      'end:',
    ]);
  });
});

describe('size limits', () => {
  test('a long operator chain within the limit compiles, prints and evaluates', () => {
    const source = `1${' + 1'.repeat(990)}`;
    const parsed = parseFormula(source);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(formatFormula(parsed.ast)).toBe(source);
    expect(evaluateFormula(`${source} = 991`, {})).toEqual({ ok: true, value: true });
    expect(evaluateFormula(`x${' & x'.repeat(990)}`, { x: ['a', 'b'] })).toMatchObject({
      ok: true,
    });
  });

  test('a chain deeper than 1000 is a diagnostic, never a stack overflow', () => {
    const source = `1${'+1'.repeat(100_000)}`;
    expect(parseFormula(source)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'FORMULA_TOO_DEEP' }],
    });
    expect(evaluateRules([{ name: 'r', formula: source }], {}).rules[0]).toMatchObject({
      failureReason: 'PARSE_ERROR',
    });
  });

  test('data nested deep enough to exhaust the stack is a VALUE_ERROR, not a throw', () => {
    let deep: unknown = [1];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = evaluateFormula('x + 1', { x: deep });
    expect(result).toMatchObject({ ok: false, failureReason: 'VALUE_ERROR' });
  });
});
