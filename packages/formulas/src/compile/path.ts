import type { FormulaValue } from '../values.ts';

/**
 * Reads one field of an object, own properties only, so that `constructor` or `__proto__` in a
 * formula never reaches the prototype chain.
 */
export function getField(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  return Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}

/** Turns a raw scope value into a formula value: `undefined` is NULL, a Date its ISO text. */
export function toFormulaValue(value: unknown): FormulaValue {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as FormulaValue;
}

/**
 * Follows `segments` from `index` on. An array met on the way is projected: the rest of the path
 * is followed from each item and the results are spliced into one flat array, so
 * `orders.items.amount` is every amount of every item of every order. A missing field is NULL
 * (inside a projection, one NULL per item, so that results stay aligned with the items).
 */
export function resolvePath(
  start: unknown,
  segments: readonly string[],
  index: number,
): FormulaValue {
  let value = start;
  for (let i = index; i < segments.length; i++) {
    if (Array.isArray(value)) {
      const out: FormulaValue[] = [];
      for (const item of value) {
        const result = resolvePath(item, segments, i);
        if (Array.isArray(result)) for (const r of result) out.push(r ?? null);
        else out.push(result);
      }
      return out;
    }
    value = getField(value, segments[i] as string);
  }
  return toFormulaValue(value);
}

/**
 * Visits the leaves of a path without building the projected array (the hot path of aggregates
 * such as SUM): `visit(leaf, inArray)` is called once per leaf in projection order.
 */
export function visitPath(
  start: unknown,
  segments: readonly string[],
  index: number,
  inArray: boolean,
  visit: (leaf: unknown, inArray: boolean) => void,
): void {
  let value = start;
  for (let i = index; i < segments.length; i++) {
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) visitPath(value[k], segments, i, true, visit);
      return;
    }
    value = getField(value, segments[i] as string);
  }
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) visit(toFormulaValue(value[k]), true);
    return;
  }
  visit(toFormulaValue(value), inArray);
}
