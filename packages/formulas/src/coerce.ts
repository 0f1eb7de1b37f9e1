import { FormulaErrorCode } from './formula-error-code.ts';
import { type Site, valueError } from './site.ts';
import { describeValue, isCurrency } from './values.ts';

const NUMERIC_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** Reads text as a number the way Excel does for arithmetic: `" 12.5 "` → 12.5; otherwise undefined. */
export function parseNumericText(text: string): number | undefined {
  if (!NUMERIC_TEXT.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Coerces a scalar to a number as Excel arithmetic does: numbers and currencies as they are,
 * TRUE/FALSE as 1/0, numeric text parsed; NULL stays null. Anything else is a VALUE_ERROR.
 */
export function toNumber(value: unknown, site: Site, what = 'a value'): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      valueError(site, FormulaErrorCode.NumberOutOfRange, `${what} is not a finite number`);
    }
    return value;
  }
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const parsed = parseNumericText(value);
    if (parsed !== undefined) return parsed;
  } else if (isCurrency(value)) {
    return value.amount;
  }
  return valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `${what} must be a number, got ${describeValue(value)}`,
  );
}

/** Formats a number as Excel's General format does: at most 15 significant digits. */
export function numberToText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

/** Coerces a scalar to text: numbers in General format, TRUE/FALSE, currency as its amount. NULL stays null. */
export function toText(value: unknown, site: Site, what = 'a value'): string | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return numberToText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (isCurrency(value)) return numberToText(value.amount);
  return valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `${what} must be text, got ${describeValue(value)}`,
  );
}

/** Coerces a scalar to a logical value: TRUE/FALSE, numbers (0 is FALSE); NULL stays null. */
export function toLogical(value: unknown, site: Site, what = 'a value'): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const upper = value.toUpperCase();
    if (upper === 'TRUE') return true;
    if (upper === 'FALSE') return false;
  }
  return valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `${what} must be TRUE or FALSE, got ${describeValue(value)}`,
  );
}

/** Throws a VALUE_ERROR unless `value` is a finite number; returns it. */
export function finite(value: number, site: Site): number {
  if (!Number.isFinite(value)) {
    valueError(site, FormulaErrorCode.NumberOutOfRange, 'the result is not a finite number');
  }
  return value;
}
