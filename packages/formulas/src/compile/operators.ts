import type { BinaryOperator } from '../ast.ts';
import { finite, toLogical, toNumber, toText } from '../coerce.ts';
import { checkCurrencies, compareScalars, numbersEqual, scalarsEqual } from '../compare.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { type FormulaValue, isCurrency } from '../values.ts';
import { MAX_TEXT_LENGTH, textTooLong } from '../work-meter.ts';

/** An operator on two scalars (arrays are broadcast before it is called). */
export type ScalarOperator = (a: FormulaValue, b: FormulaValue, site: Site) => FormulaValue;

function codeOf(a: FormulaValue, b: FormulaValue): string | undefined {
  if (isCurrency(a)) return a.iso_4217;
  if (isCurrency(b)) return b.iso_4217;
  return undefined;
}

/** Computes a number result; it keeps the currency code of a currency operand. */
function numeric(
  a: FormulaValue,
  b: FormulaValue,
  site: Site,
  f: (x: number, y: number) => number,
  keepsCurrency: boolean,
): FormulaValue {
  const x = toNumber(a, site, 'the left operand');
  const y = toNumber(b, site, 'the right operand');
  if (x === null || y === null) return null;
  checkCurrencies(a, b, site);
  const result = finite(f(x, y), site);
  if (keepsCurrency) {
    const code = codeOf(a, b);
    if (code !== undefined) return { amount: result, iso_4217: code };
  }
  return result;
}

/** `a ^ b` with Excel's errors: 0^0 and 0^negative and negative^fraction are VALUE_ERRORs. */
export function power(x: number, y: number, site: Site): number {
  if (x === 0 && y === 0) valueError(site, FormulaErrorCode.NumberOutOfRange, '0 ^ 0 is undefined');
  if (x === 0 && y < 0) valueError(site, FormulaErrorCode.DivisionByZero, 'division by zero');
  const result = x ** y;
  if (Number.isNaN(result)) {
    valueError(site, FormulaErrorCode.NumberOutOfRange, `${x} ^ ${y} is not a real number`);
  }
  return finite(result, site);
}

const add: ScalarOperator = (a, b, site) => numeric(a, b, site, (x, y) => x + y, true);
const subtract: ScalarOperator = (a, b, site) => numeric(a, b, site, (x, y) => x - y, true);
const multiply: ScalarOperator = (a, b, site) => numeric(a, b, site, (x, y) => x * y, true);
const divide: ScalarOperator = (a, b, site) =>
  numeric(
    a,
    b,
    site,
    (x, y) =>
      y === 0 ? valueError(site, FormulaErrorCode.DivisionByZero, 'division by zero') : x / y,
    true,
  );
const raise: ScalarOperator = (a, b, site) =>
  numeric(a, b, site, (x, y) => power(x, y, site), false);

const concat: ScalarOperator = (a, b, site) => {
  const x = toText(a, site, 'the left operand');
  const y = toText(b, site, 'the right operand');
  if (x === null || y === null) return null;
  // V8 joins two texts without copying them (a cons string), so only the length is checked here;
  // whoever reads the result later pays for its characters.
  const length = x.length + y.length;
  if (length > MAX_TEXT_LENGTH) textTooLong(length, site);
  return x + y;
};

function notNull(a: FormulaValue, b: FormulaValue): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined;
}

const equal: ScalarOperator = (a, b, site) => (notNull(a, b) ? scalarsEqual(a, b, site) : null);
const notEqual: ScalarOperator = (a, b, site) => (notNull(a, b) ? !scalarsEqual(a, b, site) : null);
const less: ScalarOperator = (a, b, site) =>
  notNull(a, b) ? compareScalars(a, b, site) < 0 : null;
const lessOrEqual: ScalarOperator = (a, b, site) =>
  notNull(a, b) ? compareScalars(a, b, site) <= 0 : null;
const greater: ScalarOperator = (a, b, site) =>
  notNull(a, b) ? compareScalars(a, b, site) > 0 : null;
const greaterOrEqual: ScalarOperator = (a, b, site) =>
  notNull(a, b) ? compareScalars(a, b, site) >= 0 : null;

/** Three-valued AND: FALSE wins, then NULL, else TRUE. */
export const and3: ScalarOperator = (a, b, site) => {
  const x = toLogical(a, site, 'the left operand');
  const y = toLogical(b, site, 'the right operand');
  if (x === false || y === false) return false;
  if (x === null || y === null) return null;
  return true;
};

/** Three-valued OR: TRUE wins, then NULL, else FALSE. */
export const or3: ScalarOperator = (a, b, site) => {
  const x = toLogical(a, site, 'the left operand');
  const y = toLogical(b, site, 'the right operand');
  if (x === true || y === true) return true;
  if (x === null || y === null) return null;
  return false;
};

/** The scalar semantics of every binary operator. */
export const scalarOperators: Readonly<Record<BinaryOperator, ScalarOperator>> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '^': raise,
  '&': concat,
  '=': equal,
  '<>': notEqual,
  '<': less,
  '<=': lessOrEqual,
  '>': greater,
  '>=': greaterOrEqual,
  AND: and3,
  OR: or3,
};

/**
 * Number-only fast paths (no currency, no NULL, no coercion): the common case of the hot loop.
 * They must agree with the scalar operators above on finite numbers.
 */
export const numberFastPaths: Partial<
  Record<BinaryOperator, (x: number, y: number, site: Site) => FormulaValue>
> = {
  '+': (x, y, site) => finite(x + y, site),
  '-': (x, y, site) => finite(x - y, site),
  '*': (x, y, site) => finite(x * y, site),
  '/': (x, y, site) =>
    y === 0
      ? valueError(site, FormulaErrorCode.DivisionByZero, 'division by zero')
      : finite(x / y, site),
  '=': (x, y) => numbersEqual(x, y),
  '<>': (x, y) => !numbersEqual(x, y),
  '<': (x, y) => x < y && !numbersEqual(x, y),
  '<=': (x, y) => x < y || numbersEqual(x, y),
  '>': (x, y) => x > y && !numbersEqual(x, y),
  '>=': (x, y) => x > y || numbersEqual(x, y),
};

/** Unary minus or plus on a scalar: a number (a currency keeps its code); NULL stays NULL. */
export function negate(a: FormulaValue, site: Site, sign: -1 | 1): FormulaValue {
  const x = toNumber(a, site, 'the operand');
  if (x === null) return null;
  const result = sign === -1 ? -x : x;
  return isCurrency(a) ? { amount: result, iso_4217: a.iso_4217 } : result;
}

/** Logical NOT on a scalar; NULL stays NULL. */
export function not(a: FormulaValue, site: Site): FormulaValue {
  const x = toLogical(a, site, 'the operand');
  return x === null ? null : !x;
}
