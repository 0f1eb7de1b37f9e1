import { foldCase } from './fold-case.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import { type Site, valueError } from './site.ts';
import { describeValue, isCurrency } from './values.ts';
import { spendText } from './work-meter.ts';

/** Relative tolerance of number equality, so that `0.1 + 0.2 = 0.3` holds. */
export const NUMBER_TOLERANCE = 1e-9;

/** Numbers are equal when they differ by at most 1e-9 of the larger magnitude. */
export function numbersEqual(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= NUMBER_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

function currencyCode(value: unknown): string | undefined {
  return isCurrency(value) ? value.iso_4217 : undefined;
}

/** Throws when both values are currencies with different codes. */
export function checkCurrencies(a: unknown, b: unknown, site: Site): void {
  const ca = currencyCode(a);
  if (ca === undefined) return;
  const cb = currencyCode(b);
  if (cb !== undefined && ca !== cb) {
    valueError(site, FormulaErrorCode.CurrencyMismatch, `cannot combine ${ca} with ${cb}`);
  }
}

function unwrap(value: unknown): unknown {
  return isCurrency(value) ? value.amount : value;
}

/**
 * Equality of two non-null scalars, as `=` tests it: numbers within tolerance, text
 * case-insensitively, TRUE/FALSE by value; values of different types are not equal (Excel:
 * `"1" = 1` is FALSE). Objects and arrays cannot be compared.
 */
export function scalarsEqual(a: unknown, b: unknown, site: Site): boolean {
  checkCurrencies(a, b, site);
  const x = unwrap(a);
  const y = unwrap(b);
  if (typeof x === 'number' && typeof y === 'number') return numbersEqual(x, y);
  if (typeof x === 'string' && typeof y === 'string') {
    spendText(x.length + y.length, site);
    return x === y || foldCase(x) === foldCase(y);
  }
  if (typeof x === 'boolean' && typeof y === 'boolean') return x === y;
  if (typeof x === 'object' || typeof y === 'object') {
    valueError(
      site,
      FormulaErrorCode.TypeMismatch,
      `cannot compare ${describeValue(a)} with ${describeValue(b)}`,
    );
  }
  return false;
}

/**
 * Orders two non-null scalars of the same type: -1, 0 or 1. Numbers with the equality
 * tolerance, text case-insensitively by code point of the folded text, FALSE before TRUE.
 * Different types are a VALUE_ERROR (Excel would silently rank text above numbers).
 */
export function compareScalars(a: unknown, b: unknown, site: Site): number {
  checkCurrencies(a, b, site);
  const x = unwrap(a);
  const y = unwrap(b);
  if (typeof x === 'number' && typeof y === 'number') {
    return numbersEqual(x, y) ? 0 : x < y ? -1 : 1;
  }
  if (typeof x === 'string' && typeof y === 'string') {
    spendText(x.length + y.length, site);
    const fx = foldCase(x);
    const fy = foldCase(y);
    return fx === fy ? 0 : fx < fy ? -1 : 1;
  }
  if (typeof x === 'boolean' && typeof y === 'boolean') {
    return x === y ? 0 : x ? 1 : -1;
  }
  return valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `cannot order ${describeValue(a)} against ${describeValue(b)}; convert with VALUE, DATEVALUE or TEXT first`,
  );
}
