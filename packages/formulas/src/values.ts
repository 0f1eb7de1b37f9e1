/**
 * A currency amount as extraction produces it. It acts as its `amount` in arithmetic and
 * comparisons; combining two different `iso_4217` codes is a VALUE_ERROR.
 */
export interface FormulaCurrency {
  readonly amount: number;
  readonly iso_4217: string;
}

/** An object reached by a path that is not a currency: usable only with ISPRESENT, ISBLANK, COUNTA and the like. */
export type FormulaRecord = { readonly [key: string]: unknown };

/**
 * A value inside the formula language. There is no `undefined`: a missing value is `null`.
 * Dates are Excel serial numbers (days since 1899-12-30) or ISO text that the date functions read.
 */
export type FormulaValue =
  | null
  | boolean
  | number
  | string
  | FormulaCurrency
  | FormulaRecord
  | readonly FormulaValue[];

/**
 * The data a formula reads: any object, e.g. step outputs by step name and `metadata`. Only own
 * properties are read. (Typed `object` so that interfaces without an index signature fit.)
 */
export type FormulaScope = object;

/** True for `{ amount: number, iso_4217: string }` objects. */
export function isCurrency(value: unknown): value is FormulaCurrency {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { amount?: unknown }).amount === 'number' &&
    typeof (value as { iso_4217?: unknown }).iso_4217 === 'string'
  );
}

/** Describes a value for an error message: `text "abc"`, `the number 3`, `NULL`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
      return `the number ${value}`;
    case 'string':
      return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'object':
      if (Array.isArray(value)) return 'an array';
      if (isCurrency(value)) return `the amount ${value.amount} ${value.iso_4217}`;
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
