import { parseNumericText, toText } from '../coerce.ts';
import { scalarsEqual } from '../compare.ts';
import type { Compiled } from '../compile/compiled.ts';
import { and3, or3 } from '../compile/operators.ts';
import { foldCase } from '../fold-case.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { describeValue, type FormulaValue, isCurrency } from '../values.ts';
import { COST, spend, spendArray, spendText } from '../work-meter.ts';
import { flatten } from './aggregate.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';

function includesFolded(element: unknown, needle: string, site: Site): boolean {
  if (element === null || element === undefined) return false;
  if (typeof element === 'string') {
    spendText(element.length, site);
    return foldCase(element).includes(needle);
  }
  if (Array.isArray(element)) {
    spendArray(element.length, site);
    for (const inner of element) if (includesFolded(inner, needle, site)) return true;
    return false;
  }
  if (typeof element === 'object' && !isCurrency(element)) {
    return valueError(
      site,
      FormulaErrorCode.TypeMismatch,
      `cannot search inside ${describeValue(element)}`,
    );
  }
  return foldCase(toText(element as FormulaValue, site, 'an element') ?? '').includes(needle);
}

/** INCLUDES on evaluated arguments: NULL array or needle gives NULL. */
function includes(array: FormulaValue, needle: FormulaValue, site: Site): FormulaValue {
  if (array === null || array === undefined || needle === null || needle === undefined) return null;
  const text = toText(needle, site, 'the text') ?? '';
  spendText(text.length, site);
  const folded = foldCase(text);
  if (!Array.isArray(array)) return includesFolded(array, folded, site);
  spendArray(array.length, site);
  for (let i = 0; i < array.length; i++) if (includesFolded(array[i], folded, site)) return true;
  return false;
}

function containsValue(element: unknown, value: FormulaValue, site: Site): boolean {
  if (element === null || element === undefined) return false;
  if (Array.isArray(element)) {
    spendArray(element.length, site);
    for (const inner of element) if (containsValue(inner, value, site)) return true;
    return false;
  }
  if (typeof element === 'object' && !isCurrency(element)) return false;
  return scalarsEqual(element, value, site);
}

/** CONTAINS on evaluated arguments: whole-element equality as `=` tests it. */
function contains(array: FormulaValue, value: FormulaValue, site: Site): FormulaValue {
  if (array === null || array === undefined || value === null || value === undefined) return null;
  if (typeof value === 'object' && !isCurrency(value)) {
    return valueError(
      site,
      FormulaErrorCode.TypeMismatch,
      `cannot look for ${describeValue(value)}`,
    );
  }
  return containsValue(array, value, site);
}

function countNumbers(args: readonly FormulaValue[], site: Site): number {
  let n = 0;
  const item = (value: unknown): void => {
    if (typeof value === 'number' || isCurrency(value)) n++;
    else if (Array.isArray(value)) {
      spendArray(value.length, site);
      for (const inner of value) item(inner);
    }
  };
  for (const arg of args) {
    if (Array.isArray(arg)) item(arg);
    else if (
      typeof arg === 'boolean' ||
      (typeof arg === 'string' && parseNumericText(arg) !== undefined)
    )
      n++;
    else item(arg);
  }
  return n;
}

/** Built-in array functions: aggregates that take arrays whole. */
export const arrayFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'INCLUDES',
    category: 'array',
    minArgs: 2,
    broadcast: [1],
    nulls: 'pass',
    signature: 'INCLUDES(array, text)',
    summary:
      'TRUE if `text` occurs, case-insensitively, as a substring of any element (numbers are searched as text). A scalar first argument is a one-element array; NULL array or text gives NULL.',
    examples: [
      {
        formula: 'INCLUDES(tags, "URGENT")',
        scope: { tags: ['not urgent', 'paid'] },
        result: true,
      },
      { formula: 'INCLUDES("Straße 5", "STRASSE")', result: true },
      { formula: 'INCLUDES(tags, "x")', scope: { tags: [] }, result: false },
    ],
    compile: (args, site, asts) => {
      const array = args[0] as Compiled;
      const needleAst = asts[1];
      if (needleAst?.kind === 'string') {
        // Fold a literal needle once, not per evaluation.
        const folded = foldCase(needleAst.value);
        return (scope, context) => {
          const value = array(scope, context);
          if (value === null || value === undefined) return null;
          if (!Array.isArray(value)) return includesFolded(value, folded, site);
          spendArray(value.length, site);
          for (let i = 0; i < value.length; i++)
            if (includesFolded(value[i], folded, site)) return true;
          return false;
        };
      }
      const needle = args[1] as Compiled;
      return (scope, context) => {
        const value = array(scope, context);
        const n = needle(scope, context);
        if (!Array.isArray(n)) return includes(value, n, site);
        return n.map((item) => includes(value, item ?? null, site));
      };
    },
  }),
  builtin({
    name: 'INCLUDESANY',
    category: 'array',
    minArgs: 2,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'INCLUDESANY(array, text1, [text2, …])',
    summary:
      'TRUE if any of the texts occurs in any element, as INCLUDES tests it (it is the OR of INCLUDES over the texts; array arguments supply several texts).',
    examples: [
      {
        formula: 'INCLUDESANY(tags, "late", "URGENT")',
        scope: { tags: ['Urgent!'] },
        result: true,
      },
    ],
    apply: ([array, ...needles], site) => {
      let result: FormulaValue = false;
      for (const needle of flatten(needles, site))
        result = or3(result, includes(array ?? null, needle, site), site);
      return result;
    },
  }),
  builtin({
    name: 'CONTAINS',
    category: 'array',
    minArgs: 2,
    broadcast: [1],
    nulls: 'pass',
    signature: 'CONTAINS(array, value)',
    summary:
      'TRUE if an element equals the value as `=` tests it (whole element; text case-insensitive, numbers within tolerance). NULL array or value gives NULL.',
    examples: [
      {
        formula: 'CONTAINS(categories, "urgent")',
        scope: { categories: ['Urgent', 'paid'] },
        result: true,
      },
      { formula: 'CONTAINS(categories, "urg")', scope: { categories: ['Urgent'] }, result: false },
    ],
    apply: ([array, value], site) => contains(array ?? null, value ?? null, site),
  }),
  builtin({
    name: 'CONTAINSALL',
    category: 'array',
    minArgs: 2,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'CONTAINSALL(array, value1, [value2, …])',
    summary: 'TRUE if every value is an element (the AND of CONTAINS over the values).',
    examples: [
      { formula: 'CONTAINSALL(x, "a", "B")', scope: { x: ['a', 'b', 'c'] }, result: true },
      { formula: 'CONTAINSALL(x, "a", "d")', scope: { x: ['a', 'b', 'c'] }, result: false },
    ],
    apply: ([array, ...values], site) => {
      let result: FormulaValue = true;
      for (const value of flatten(values, site))
        result = and3(result, contains(array ?? null, value, site), site);
      return result;
    },
  }),
  builtin({
    name: 'COUNT',
    category: 'array',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'COUNT(value1, [value2, …])',
    summary:
      'How many numbers there are: array items that are numbers; scalar arguments that are numbers, numeric text or TRUE/FALSE (as in Excel).',
    examples: [
      { formula: 'COUNT(x)', scope: { x: [1, 'a', null, 2] }, result: 2 },
      { formula: 'COUNT(1, "2", TRUE)', result: 3 },
    ],
    apply: (args, site) => countNumbers(args, site),
  }),
  builtin({
    name: 'COUNTA',
    category: 'array',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'COUNTA(value1, [value2, …])',
    summary: 'How many values are not NULL, array items included (empty text counts, as in Excel).',
    examples: [{ formula: 'COUNTA(x)', scope: { x: [1, 'a', null, ''] }, result: 3 }],
    apply: (args, site) =>
      flatten(args, site).filter((value) => value !== null && value !== undefined).length,
  }),
  builtin({
    name: 'UNIQUE',
    category: 'array',
    minArgs: 1,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'UNIQUE(array)',
    summary:
      'The distinct elements in first-seen order, compared as `=` does (text case-insensitively).',
    examples: [{ formula: 'UNIQUE(x)', scope: { x: ['a', 'A', 'b', 'a'] }, result: ['a', 'b'] }],
    apply: ([array], site) => {
      if (!Array.isArray(array)) return array ?? null;
      spendArray(array.length, site);
      const out: FormulaValue[] = [];
      for (const item of array as readonly FormulaValue[]) {
        const value = item ?? null;
        // Each item is compared with every kept one: quadratic in the worst case, so metered.
        spend(out.length * COST.comparison, site);
        const seen = out.some((kept) => {
          if (kept === null || value === null) return kept === value;
          if (typeof kept === 'object' || typeof value === 'object') {
            return (
              kept === value ||
              (isCurrency(kept) && isCurrency(value) && scalarsEqual(kept, value, site))
            );
          }
          return scalarsEqual(kept, value, site);
        });
        if (!seen) out.push(value);
      }
      return out;
    },
  }),
  builtin({
    name: 'FIRST',
    category: 'array',
    minArgs: 1,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'FIRST(array)',
    summary: 'The first element; NULL for an empty array; a scalar is returned as it is.',
    examples: [{ formula: 'FIRST(x)', scope: { x: [3, 4] }, result: 3 }],
    apply: ([array]) => (Array.isArray(array) ? (array[0] ?? null) : (array ?? null)),
  }),
  builtin({
    name: 'LAST',
    category: 'array',
    minArgs: 1,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'LAST(array)',
    summary: 'The last element; NULL for an empty array; a scalar is returned as it is.',
    examples: [{ formula: 'LAST(x)', scope: { x: [3, 4] }, result: 4 }],
    apply: ([array]) =>
      Array.isArray(array) ? (array[array.length - 1] ?? null) : (array ?? null),
  }),
];
