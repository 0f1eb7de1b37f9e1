import { finite, toNumber } from '../coerce.ts';
import type { Compiled } from '../compile/compiled.ts';
import { power } from '../compile/operators.ts';
import { compilePathSegments, visitPath } from '../compile/path.ts';
import {
  generateNumberAccumulator,
  generatePathWalker,
  type NumberPathAccumulator,
  type PathWalker,
  TIER_UP_AFTER,
} from '../compile/path-codegen.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { COST, spend } from '../work-meter.ts';
import {
  accumulateArgument,
  accumulateItem,
  type NumberAccumulator,
  newAccumulator,
  resetAccumulator,
  withCode,
} from './aggregate.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';

function num(value: FormulaValue, site: Site, position: number): number {
  // NULL never reaches here: these functions propagate NULL before calling.
  return toNumber(value, site, `argument ${position}`) as number;
}

/**
 * Rounds like Excel: half away from zero, after snapping the scaled value to 15 significant
 * digits so that `ROUND(2.675, 2)` is 2.68 although 2.675 is stored as 2.67499999….
 */
function roundWith(x: number, digits: number, mode: 'nearest' | 'up' | 'down', site: Site): number {
  const d = Math.trunc(digits);
  const factor = 10 ** Math.abs(d);
  const scaled = Number(Math.abs(d >= 0 ? x * factor : x / factor).toPrecision(15));
  const rounded =
    mode === 'nearest'
      ? Math.round(scaled)
      : mode === 'up'
        ? Math.ceil(scaled)
        : Math.floor(scaled);
  const magnitude = d >= 0 ? rounded / factor : rounded * factor;
  return finite(x < 0 ? -magnitude : magnitude, site) + 0;
}

function visitor(acc: NumberAccumulator, site: Site): (leaf: unknown, inArray: boolean) => void {
  return (leaf, inArray) => {
    acc.leaves++;
    if (inArray) accumulateItem(acc, leaf, site);
    else accumulateArgument(acc, leaf as FormulaValue, site);
  };
}

function aggregate(
  name: string,
  signature: string,
  summary: string,
  finish: (acc: NumberAccumulator, site: Site) => FormulaValue,
  examples: BuiltinFunction['examples'],
): BuiltinFunction {
  return builtin({
    name,
    category: 'math',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature,
    summary,
    examples,
    compile: (args, site, asts) => {
      const acc = newAccumulator();
      const only = asts.length === 1 ? asts[0] : undefined;
      if (only?.kind === 'path') {
        // Fused: walk the path and accumulate its leaves without building the projected array.
        const path = compilePathSegments(only.segments);
        const visit = visitor(acc, site);
        // Tiered: the generic walk first; generated loops once the path is hot (TIER_UP_AFTER).
        let calls = 0;
        let walk: PathWalker | undefined;
        let numbers: NumberPathAccumulator | undefined;
        return (scope) => {
          resetAccumulator(acc);
          if (numbers !== undefined && walk !== undefined) {
            if (!numbers(scope, acc)) {
              // Not all plain numbers: redo with currencies, coercion and error messages.
              resetAccumulator(acc);
              walk(scope, visit);
            }
            // Charged after the walk, by leaves, as both tiers count them: a tree of JSON data is
            // walked in time linear in its size, so one walk cannot run away.
            spend(acc.leaves * COST.pathItem, site);
            return finish(acc, site);
          }
          if (++calls === TIER_UP_AFTER) {
            walk = generatePathWalker(path);
            numbers = generateNumberAccumulator(path, name === 'MIN' || name === 'MAX');
          }
          visitPath(scope, path, 0, false, visit);
          spend(acc.leaves * COST.pathItem, site);
          return finish(acc, site);
        };
      }
      const compiled: readonly Compiled[] = args;
      return (scope, context) => {
        // Arguments may re-enter this closure (nested SUMs), so evaluate them all first.
        const values = compiled.map((arg) => arg(scope, context));
        resetAccumulator(acc);
        for (const value of values) accumulateArgument(acc, value, site);
        return finish(acc, site);
      };
    },
  });
}

/** Built-in math functions. */
export const mathFunctions: readonly BuiltinFunction[] = [
  aggregate(
    'SUM',
    'SUM(value1, [value2, …])',
    'Adds numbers; arrays are summed item by item, NULL items are skipped.',
    (acc, site) => withCode(acc, finite(acc.sum, site)),
    [
      { formula: 'SUM(1, 2, 3)', result: 6 },
      {
        formula: 'SUM(items.amount)',
        scope: { items: [{ amount: 1.5 }, { amount: 2 }] },
        result: 3.5,
      },
      { formula: 'SUM(x)', scope: { x: [] }, result: 0 },
    ],
  ),
  aggregate(
    'MIN',
    'MIN(value1, [value2, …])',
    'The smallest number; 0 when there are none (as in Excel).',
    (acc) => withCode(acc, acc.count === 0 ? 0 : acc.min),
    [{ formula: 'MIN(4, 2, 8)', result: 2 }],
  ),
  aggregate(
    'MAX',
    'MAX(value1, [value2, …])',
    'The largest number; 0 when there are none (as in Excel).',
    (acc) => withCode(acc, acc.count === 0 ? 0 : acc.max),
    [{ formula: 'MAX(4, 2, 8)', result: 8 }],
  ),
  aggregate(
    'AVERAGE',
    'AVERAGE(value1, [value2, …])',
    'The arithmetic mean of the numbers; no numbers is a division by zero.',
    (acc, site) =>
      acc.count === 0
        ? valueError(site, FormulaErrorCode.DivisionByZero, 'there are no numbers to average')
        : withCode(acc, finite(acc.sum / acc.count, site)),
    [{ formula: 'AVERAGE(1, 2, 6)', result: 3 }],
  ),
  builtin({
    name: 'ROUND',
    category: 'math',
    minArgs: 2,
    signature: 'ROUND(number, digits)',
    summary:
      'Rounds half away from zero to `digits` decimals (negative digits round left of the point).',
    examples: [
      { formula: 'ROUND(2.675, 2)', result: 2.68 },
      { formula: 'ROUND(-2.5, 0)', result: -3 },
      { formula: 'ROUND(1234, -2)', result: 1200 },
    ],
    apply: ([x, d], site) =>
      roundWith(num(x ?? null, site, 1), num(d ?? null, site, 2), 'nearest', site),
  }),
  builtin({
    name: 'ROUNDUP',
    category: 'math',
    minArgs: 2,
    signature: 'ROUNDUP(number, digits)',
    summary: 'Rounds away from zero to `digits` decimals.',
    examples: [{ formula: 'ROUNDUP(3.141, 2)', result: 3.15 }],
    apply: ([x, d], site) =>
      roundWith(num(x ?? null, site, 1), num(d ?? null, site, 2), 'up', site),
  }),
  builtin({
    name: 'ROUNDDOWN',
    category: 'math',
    minArgs: 2,
    signature: 'ROUNDDOWN(number, digits)',
    summary: 'Rounds toward zero to `digits` decimals.',
    examples: [{ formula: 'ROUNDDOWN(-3.149, 2)', result: -3.14 }],
    apply: ([x, d], site) =>
      roundWith(num(x ?? null, site, 1), num(d ?? null, site, 2), 'down', site),
  }),
  builtin({
    name: 'ABS',
    category: 'math',
    minArgs: 1,
    signature: 'ABS(number)',
    summary: 'The absolute value.',
    examples: [{ formula: 'ABS(-4.5)', result: 4.5 }],
    apply: ([x], site) => Math.abs(num(x ?? null, site, 1)),
  }),
  builtin({
    name: 'MOD',
    category: 'math',
    minArgs: 2,
    signature: 'MOD(number, divisor)',
    summary: 'The remainder after division, with the sign of the divisor (as in Excel).',
    examples: [
      { formula: 'MOD(10, 3)', result: 1 },
      { formula: 'MOD(-3, 2)', result: 1 },
    ],
    apply: ([a, b], site) => {
      const x = num(a ?? null, site, 1);
      const y = num(b ?? null, site, 2);
      if (y === 0) valueError(site, FormulaErrorCode.DivisionByZero, 'division by zero');
      // fmod is exact; shifting by the divisor gives Excel's sign (that of the divisor)
      // without the precision loss of x - y * FLOOR(x / y) for large quotients.
      const r = x % y;
      return (r !== 0 && r < 0 !== y < 0 ? r + y : r) + 0;
    },
  }),
  builtin({
    name: 'POWER',
    category: 'math',
    minArgs: 2,
    signature: 'POWER(base, exponent)',
    summary: 'Raises a number to a power, like the `^` operator.',
    examples: [{ formula: 'POWER(2, 10)', result: 1024 }],
    apply: ([a, b], site) => power(num(a ?? null, site, 1), num(b ?? null, site, 2), site),
  }),
  builtin({
    name: 'SQRT',
    category: 'math',
    minArgs: 1,
    signature: 'SQRT(number)',
    summary: 'The square root; a negative number is a VALUE_ERROR.',
    examples: [{ formula: 'SQRT(16)', result: 4 }],
    apply: ([a], site) => {
      const x = num(a ?? null, site, 1);
      if (x < 0)
        valueError(site, FormulaErrorCode.NumberOutOfRange, 'the square root of a negative number');
      return Math.sqrt(x);
    },
  }),
];
