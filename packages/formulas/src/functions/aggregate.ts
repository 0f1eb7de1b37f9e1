import { toNumber } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { describeValue, type FormulaValue, isCurrency } from '../values.ts';
import { checkArrayLength, spendArray } from '../work-meter.ts';

/**
 * Running state of a numeric aggregate. Excel's rules: a scalar argument is coerced like
 * arithmetic (numeric text, TRUE/FALSE); inside an array only numbers (and currencies) count,
 * NULL is skipped and anything else is a VALUE_ERROR naming the item (Excel would silently skip
 * text, which hides extraction mistakes). Currency codes must agree.
 */
export interface NumberAccumulator {
  sum: number;
  count: number;
  min: number;
  max: number;
  code: string | undefined;
  item: number;
  /** Leaves of a path walked (what the walk is charged). */
  leaves: number;
}

/** A fresh accumulator. */
export function newAccumulator(): NumberAccumulator {
  return {
    sum: 0,
    count: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    code: undefined,
    item: 0,
    leaves: 0,
  };
}

/** Resets an accumulator for reuse (avoids allocating one per evaluation). */
export function resetAccumulator(acc: NumberAccumulator): void {
  acc.sum = 0;
  acc.count = 0;
  acc.min = Number.POSITIVE_INFINITY;
  acc.max = Number.NEGATIVE_INFINITY;
  acc.code = undefined;
  acc.item = 0;
  acc.leaves = 0;
}

function addNumber(acc: NumberAccumulator, x: number): void {
  acc.sum += x;
  acc.count++;
  if (x < acc.min) acc.min = x;
  if (x > acc.max) acc.max = x;
}

function addCurrency(acc: NumberAccumulator, code: string, site: Site): void {
  if (acc.code === undefined) acc.code = code;
  else if (acc.code !== code) {
    valueError(site, FormulaErrorCode.CurrencyMismatch, `cannot combine ${acc.code} with ${code}`);
  }
}

/** Adds one value met inside an array (or through a path projection). */
export function accumulateItem(acc: NumberAccumulator, value: unknown, site: Site): void {
  acc.item++;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      valueError(
        site,
        FormulaErrorCode.NumberOutOfRange,
        `item ${acc.item} is not a finite number`,
      );
    }
    addNumber(acc, value);
    return;
  }
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    acc.item--;
    for (const inner of value) accumulateItem(acc, inner, site);
    return;
  }
  if (isCurrency(value)) {
    addCurrency(acc, value.iso_4217, site);
    addNumber(acc, value.amount);
    return;
  }
  valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `item ${acc.item} is ${describeValue(value)}, not a number`,
  );
}

/** Adds one argument: arrays item by item, scalars with arithmetic coercion. */
export function accumulateArgument(acc: NumberAccumulator, value: FormulaValue, site: Site): void {
  if (Array.isArray(value)) {
    for (const inner of value) accumulateItem(acc, inner, site);
    return;
  }
  if (isCurrency(value)) {
    addCurrency(acc, value.iso_4217, site);
    addNumber(acc, value.amount);
    return;
  }
  const x = toNumber(value, site, 'an argument');
  if (x !== null) addNumber(acc, x);
}

/** The accumulated number as a value: a currency if currencies were summed. */
export function withCode(acc: NumberAccumulator, value: number): FormulaValue {
  return acc.code === undefined ? value : { amount: value, iso_4217: acc.code };
}

/** Every value of the arguments, arrays flattened; each array is charged to the budget under `site`. */
export function flatten(args: readonly FormulaValue[], site: Site): FormulaValue[] {
  const out: FormulaValue[] = [];
  const visit = (value: FormulaValue): void => {
    if (Array.isArray(value)) {
      spendArray(value.length, site);
      checkArrayLength(out.length + value.length, site);
      for (const inner of value) visit(inner ?? null);
    } else out.push(value);
  };
  for (const arg of args) visit(arg);
  return out;
}
