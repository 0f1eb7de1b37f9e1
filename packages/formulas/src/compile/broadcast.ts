import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { COST, spendArray } from '../work-meter.ts';

function lengthMismatch(site: Site, a: number, b: number): never {
  return valueError(
    site,
    FormulaErrorCode.LengthMismatch,
    `arrays of different lengths (${a} and ${b}) cannot be paired item by item`,
  );
}

/** Applies `f` per item: arrays pair by index, a scalar pairs with every item. */
export function broadcast2(
  a: FormulaValue,
  b: FormulaValue,
  site: Site,
  f: (x: FormulaValue, y: FormulaValue, site: Site) => FormulaValue,
): FormulaValue {
  if (Array.isArray(a)) {
    const left = a as readonly FormulaValue[];
    spendArray(left.length, site);
    const out = new Array<FormulaValue>(left.length);
    if (Array.isArray(b)) {
      const right = b as readonly FormulaValue[];
      if (left.length !== right.length) lengthMismatch(site, left.length, right.length);
      for (let i = 0; i < left.length; i++) {
        out[i] = broadcast2(left[i] ?? null, right[i] ?? null, site, f);
      }
    } else {
      for (let i = 0; i < left.length; i++) out[i] = broadcast2(left[i] ?? null, b, site, f);
    }
    return out;
  }
  if (Array.isArray(b)) {
    const right = b as readonly FormulaValue[];
    spendArray(right.length, site);
    const out = new Array<FormulaValue>(right.length);
    for (let i = 0; i < right.length; i++) out[i] = broadcast2(a, right[i] ?? null, site, f);
    return out;
  }
  return f(a, b, site);
}

function finiteNumber(value: unknown): boolean {
  return typeof value === 'number' && value - value === 0;
}

/**
 * The fast path of an arithmetic or comparison operator over arrays: when the operands are flat
 * arrays of finite numbers of one length (or one is a finite number), `f` per item, charged at the
 * number price; otherwise undefined, and the caller broadcasts with the general rules.
 */
export function broadcastNumbers(
  a: FormulaValue,
  b: FormulaValue,
  site: Site,
  f: (x: number, y: number, site: Site) => FormulaValue,
): FormulaValue[] | undefined {
  const left = Array.isArray(a) ? (a as readonly FormulaValue[]) : undefined;
  const right = Array.isArray(b) ? (b as readonly FormulaValue[]) : undefined;
  if (left === undefined && right === undefined) return undefined;
  if (left === undefined ? !finiteNumber(a) : right === undefined && !finiteNumber(b)) {
    return undefined;
  }
  const length = (left ?? right)?.length ?? 0;
  if (left !== undefined && right !== undefined && right.length !== length) return undefined;
  for (let i = 0; i < length; i++) {
    if (left !== undefined && !finiteNumber(left[i])) return undefined;
    if (right !== undefined && !finiteNumber(right[i])) return undefined;
  }
  spendArray(length, site, COST.numberItem);
  const out = new Array<FormulaValue>(length);
  for (let i = 0; i < length; i++) {
    out[i] = f((left?.[i] ?? a) as number, (right?.[i] ?? b) as number, site);
  }
  return out;
}

/** Applies `f` per item of an array (recursively), or to a scalar. */
export function broadcast1(
  a: FormulaValue,
  site: Site,
  f: (x: FormulaValue, site: Site) => FormulaValue,
): FormulaValue {
  if (Array.isArray(a)) {
    const items = a as readonly FormulaValue[];
    spendArray(items.length, site);
    const out = new Array<FormulaValue>(items.length);
    for (let i = 0; i < items.length; i++) out[i] = broadcast1(items[i] ?? null, site, f);
    return out;
  }
  return f(a, site);
}

/**
 * Applies `f` per item over the arguments whose position `broadcasts(i)` says; those that are
 * arrays must have one length, scalars are repeated.
 */
export function broadcastN(
  args: readonly FormulaValue[],
  broadcasts: (index: number) => boolean,
  site: Site,
  f: (args: FormulaValue[]) => FormulaValue,
): FormulaValue {
  let length = -1;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (Array.isArray(arg) && broadcasts(i)) {
      if (length === -1) length = arg.length;
      else if (arg.length !== length) lengthMismatch(site, length, arg.length);
    }
  }
  if (length === -1) return f(args as FormulaValue[]);
  spendArray(length, site);
  const out = new Array<FormulaValue>(length);
  for (let k = 0; k < length; k++) {
    const row = args.map((arg, i) =>
      Array.isArray(arg) && broadcasts(i) ? ((arg as readonly FormulaValue[])[k] ?? null) : arg,
    );
    out[k] = broadcastN(row, broadcasts, site, f);
  }
  return out;
}
