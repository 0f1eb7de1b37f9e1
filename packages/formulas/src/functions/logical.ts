import { toLogical } from '../coerce.ts';
import { broadcastN } from '../compile/broadcast.ts';
import type { Compiled } from '../compile/compiled.ts';
import { not } from '../compile/operators.ts';
import { isFormulaError } from '../formula-error.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { flatten } from './aggregate.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';

const always = (): boolean => true;

function logicalAggregate(
  name: string,
  summary: string,
  combine: (values: readonly (boolean | null)[]) => boolean | null,
  examples: BuiltinFunction['examples'],
): BuiltinFunction {
  return builtin({
    name,
    category: 'logical',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: `${name}(logical1, [logical2, …])`,
    summary,
    examples,
    apply: (args, site) =>
      combine(flatten(args, site).map((value) => toLogical(value, site, 'an argument'))),
  });
}

/** Built-in logical functions. */
export const logicalFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'IF',
    category: 'logical',
    minArgs: 2,
    maxArgs: 3,
    nulls: 'pass',
    signature: 'IF(condition, then, [else])',
    summary:
      '`then` if the condition is TRUE, else `else` (FALSE when omitted); a NULL condition gives NULL. Only the chosen branch is evaluated, unless the condition is an array.',
    examples: [
      { formula: 'IF(1 < 2, "yes", "no")', result: 'yes' },
      { formula: 'IF(FALSE, 1)', result: false },
      { formula: 'IF(x > 1, "big", "small")', scope: { x: [1, 2] }, result: ['small', 'big'] },
    ],
    compile: (args, site) => {
      const condition = args[0] as Compiled;
      const then = args[1] as Compiled;
      const otherwise: Compiled = args[2] ?? (() => false);
      const pick = (row: FormulaValue[]): FormulaValue => {
        const k = toLogical(row[0], site, 'the condition');
        return k === null ? null : k ? (row[1] ?? null) : (row[2] ?? null);
      };
      return (scope, context) => {
        const k = condition(scope, context);
        if (!Array.isArray(k)) {
          const test = toLogical(k, site, 'the condition');
          if (test === null) return null;
          return test ? then(scope, context) : otherwise(scope, context);
        }
        return broadcastN([k, then(scope, context), otherwise(scope, context)], always, site, pick);
      };
    },
  }),
  builtin({
    name: 'IFS',
    category: 'logical',
    minArgs: 2,
    maxArgs: Number.POSITIVE_INFINITY,
    nulls: 'pass',
    signature: 'IFS(condition1, value1, [condition2, value2, …])',
    summary:
      'The value of the first TRUE condition, as nested IFs: a NULL condition met first gives NULL; none TRUE is a VALUE_ERROR (Excel #N/A). Conditions must be single values.',
    examples: [{ formula: 'IFS(5 > 10, "big", 5 > 1, "medium", TRUE, "small")', result: 'medium' }],
    compile: (args, site) => {
      if (args.length % 2 !== 0) {
        return () =>
          valueError(site, FormulaErrorCode.InvalidArgument, 'needs condition/value pairs');
      }
      return (scope, context) => {
        for (let i = 0; i < args.length; i += 2) {
          const k = (args[i] as Compiled)(scope, context);
          if (Array.isArray(k)) {
            valueError(
              site,
              FormulaErrorCode.TypeMismatch,
              `condition ${i / 2 + 1} is an array; use IF for per-item choices`,
            );
          }
          const test = toLogical(k, site, `condition ${i / 2 + 1}`);
          if (test === null) return null;
          if (test) return (args[i + 1] as Compiled)(scope, context);
        }
        return valueError(site, FormulaErrorCode.NotFound, 'no condition was TRUE');
      };
    },
  }),
  builtin({
    name: 'IFERROR',
    category: 'logical',
    minArgs: 2,
    nulls: 'pass',
    signature: 'IFERROR(value, fallback)',
    summary: '`value`, or `fallback` if evaluating `value` is a VALUE_ERROR.',
    examples: [{ formula: 'IFERROR(1 / 0, -1)', result: -1 }],
    compile: (args) => {
      const value = args[0] as Compiled;
      const fallback = args[1] as Compiled;
      return (scope, context) => {
        try {
          return value(scope, context);
        } catch (error) {
          // A spent budget ends the evaluation: catching it would let the formula keep working.
          if (!isFormulaError(error) || error.code === FormulaErrorCode.BudgetExceeded) throw error;
          return fallback(scope, context);
        }
      };
    },
  }),
  logicalAggregate(
    'AND',
    'TRUE if every value is TRUE, across all arguments and array items; FALSE wins over NULL. No values at all is TRUE.',
    (values) => {
      let unknown = false;
      for (const v of values) {
        if (v === false) return false;
        if (v === null) unknown = true;
      }
      return unknown ? null : true;
    },
    [
      { formula: 'AND(TRUE, 1 > 0)', result: true },
      { formula: 'AND(x)', scope: { x: [true, false] }, result: false },
      { formula: 'AND(FALSE, NULL)', result: false },
    ],
  ),
  logicalAggregate(
    'OR',
    'TRUE if any value is TRUE, across all arguments and array items; TRUE wins over NULL. No values at all is FALSE.',
    (values) => {
      let unknown = false;
      for (const v of values) {
        if (v === true) return true;
        if (v === null) unknown = true;
      }
      return unknown ? null : false;
    },
    [
      { formula: 'OR(FALSE, 1 > 0)', result: true },
      { formula: 'OR(NULL, TRUE)', result: true },
    ],
  ),
  logicalAggregate(
    'XOR',
    'TRUE if an odd number of values are TRUE; any NULL gives NULL.',
    (values) => {
      let count = 0;
      for (const v of values) {
        if (v === null) return null;
        if (v) count++;
      }
      return count % 2 === 1;
    },
    [{ formula: 'XOR(TRUE, TRUE, TRUE)', result: true }],
  ),
  builtin({
    name: 'NOT',
    category: 'logical',
    minArgs: 1,
    signature: 'NOT(logical)',
    summary: 'Logical negation, per item over arrays; NOT NULL is NULL. `NOT x` is the same.',
    examples: [
      { formula: 'NOT(1 > 2)', result: true },
      { formula: 'NOT x', scope: { x: [true, false] }, result: [false, true] },
    ],
    nulls: 'pass',
    apply: ([value], site) => not(value ?? null, site),
  }),
  builtin({
    name: 'TRUE',
    category: 'logical',
    minArgs: 0,
    signature: 'TRUE()',
    summary: 'The logical value TRUE (as the keyword).',
    examples: [{ formula: 'TRUE()', result: true }],
    broadcast: 'none',
    apply: () => true,
  }),
  builtin({
    name: 'FALSE',
    category: 'logical',
    minArgs: 0,
    signature: 'FALSE()',
    summary: 'The logical value FALSE (as the keyword).',
    examples: [{ formula: 'FALSE()', result: false }],
    broadcast: 'none',
    apply: () => false,
  }),
];
