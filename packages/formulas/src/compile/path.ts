import type { Site } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { COST, checkArrayLength, spend, spendArray } from '../work-meter.ts';

/**
 * A variable path ready for lookups. `guarded[i]` marks segments that name a property every
 * object inherits (`constructor`, `toString`, `__proto__`, …): only those pay for an own-property
 * check, so that a formula never reaches the prototype chain while ordinary lookups stay plain
 * keyed loads.
 */
export interface CompiledPath {
  readonly segments: readonly string[];
  readonly guarded: readonly boolean[];
}

// Names every object inherits. A Set lookup, because `name in Object.prototype` internalises
// the string first, which made it the most expensive line of compiling a formula.
const INHERITED = new Set<string>([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

/** Prepares a path's segments for {@link resolvePath} and {@link visitPath}. */
export function compilePathSegments(segments: readonly string[]): CompiledPath {
  const guarded: boolean[] = [];
  for (const segment of segments) guarded.push(INHERITED.has(segment));
  return { segments, guarded };
}

/** Reads one own field of an object; anything else (arrays aside) has no fields. */
export function getField(target: unknown, key: string, guarded: boolean): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  if (guarded && !Object.hasOwn(target, key)) return undefined;
  return (target as Record<string, unknown>)[key];
}

/** Turns a raw scope value into a formula value: `undefined` is NULL, a Date its ISO text. */
export function toFormulaValue(value: unknown): FormulaValue {
  if (value === undefined) return null;
  if (typeof value === 'object' && value instanceof Date) return value.toISOString();
  return value as FormulaValue;
}

/**
 * Follows the path from segment `index` on. An array met on the way is projected: the rest of
 * the path is followed from each item and the results are spliced into one flat array, so
 * `orders.items.amount` is every amount of every item of every order. A missing field is NULL
 * (inside a projection, one NULL per item, so that results stay aligned with the items).
 * Each array projected is charged to the evaluation's budget under `site`.
 */
export function resolvePath(
  start: unknown,
  path: CompiledPath,
  index: number,
  site: Site,
): FormulaValue {
  const { segments, guarded } = path;
  let value = start;
  for (let i = index; i < segments.length; i++) {
    if (Array.isArray(value)) {
      spendArray(value.length, site, COST.pathItem);
      const out: FormulaValue[] = [];
      for (let k = 0; k < value.length; k++) {
        const result = resolvePath(value[k], path, i, site);
        if (Array.isArray(result)) {
          checkArrayLength(out.length + result.length, site);
          spend(result.length * COST.pathItem, site);
          for (const r of result) out.push(r ?? null);
        } else out.push(result);
      }
      return out;
    }
    value = getField(value, segments[i] as string, guarded[i] as boolean);
  }
  return toFormulaValue(value);
}

/**
 * Visits the leaves of a path without building the projected array (the hot path of aggregates
 * such as SUM): `visit(leaf, inArray)` is called once per leaf in projection order.
 */
export function visitPath(
  start: unknown,
  path: CompiledPath,
  index: number,
  inArray: boolean,
  visit: (leaf: unknown, inArray: boolean) => void,
): void {
  const { segments, guarded } = path;
  let value = start;
  for (let i = index; i < segments.length; i++) {
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) visitPath(value[k], path, i, true, visit);
      return;
    }
    if (typeof value !== 'object' || value === null) {
      value = undefined;
      break;
    }
    const key = segments[i] as string;
    value =
      guarded[i] === true && !Object.hasOwn(value, key)
        ? undefined
        : (value as Record<string, unknown>)[key];
  }
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) visit(toFormulaValue(value[k]), true);
    return;
  }
  visit(toFormulaValue(value), inArray);
}
