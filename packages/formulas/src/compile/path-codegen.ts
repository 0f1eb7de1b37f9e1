import type { FormulaValue } from '../values.ts';
import type { CompiledPath } from './path.ts';

/** A generated path walker: calls `visit(leaf, inArray)` for every leaf, as `visitPath` does. */
export type PathWalker = (start: unknown, visit: (leaf: unknown, inArray: boolean) => void) => void;

/** A generated path reader: the value of the path, as `resolvePath` computes it. */
export type PathReader = (start: unknown) => FormulaValue;

/**
 * Evaluations of a compiled path before a generated reader or loop replaces the generic one:
 * generating code costs more than parsing a formula, so only paths that are hot pay for it.
 */
export const TIER_UP_AFTER = 64;

let available: boolean | undefined;

function codegenAvailable(): boolean {
  if (available === undefined) {
    try {
      available = new Function('return 1')() === 1;
    } catch {
      // A Content-Security-Policy without 'unsafe-eval': fall back to the generic walkers.
      available = false;
    }
  }
  return available;
}

// `undefined` is NULL and a Date its ISO text, as `toFormulaValue` does.
const LEAF = (x: string): string =>
  `(${x} === undefined ? null : typeof ${x} === 'object' && ${x} instanceof Date ? ${x}.toISOString() : ${x})`;

function step(path: CompiledPath, i: number): string {
  const key = JSON.stringify(path.segments[i]);
  const own = path.guarded[i] === true ? ` && Object.hasOwn(v, ${key})` : '';
  return `typeof v === 'object' && v !== null${own} ? v[${key}] : undefined`;
}

/*
 * Generated code makes every property load use a constant key, so that it stays monomorphic in
 * V8; the generic walkers' keyed loads see many keys and go megamorphic, which costs several
 * times more on the hot path. The only text spliced into the generated source is each key
 * through JSON.stringify, which cannot escape its string literal. Where code generation is not
 * allowed these return undefined and the generic walkers are used.
 */

/** Generates a walker specialised to one path (see above). */
export function generatePathWalker(path: CompiledPath): PathWalker | undefined {
  if (!codegenAvailable()) return undefined;
  const n = path.segments.length;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(
      `function s${i}(v, a) {`,
      `  if (Array.isArray(v)) { for (let k = 0; k < v.length; k++) s${i}(v[k], true); return; }`,
      `  s${i + 1}(${step(path, i)}, a);`,
      '}',
    );
  }
  parts.push(
    `function s${n}(v, a) {`,
    `  if (Array.isArray(v)) { for (let k = 0; k < v.length; k++) { const x = v[k]; visit(${LEAF('x')}, true); } return; }`,
    `  visit(${LEAF('v')}, a);`,
    '}',
  );
  const body = `'use strict';\nlet visit;\n${parts.join('\n')}\nreturn function walk(start, f) { visit = f; s0(start, false); visit = undefined; };`;
  return new Function(body)() as PathWalker;
}

/** Generates a reader specialised to one path (see above); `project` handles arrays met on the way. */
export function generatePathReader(
  path: CompiledPath,
  project: (array: readonly unknown[], index: number) => FormulaValue,
): PathReader | undefined {
  if (!codegenAvailable()) return undefined;
  const lines = ["'use strict';", 'return function read(v) {'];
  for (let i = 0; i < path.segments.length; i++) {
    lines.push(`  if (Array.isArray(v)) return project(v, ${i});`);
    lines.push(`  v = ${step(path, i)};`);
  }
  lines.push(`  return ${LEAF('v')};`, '};');
  return new Function('project', lines.join('\n'))(project) as PathReader;
}

/** Accumulates a path's leaves into `acc` if they are all finite numbers or NULL; false otherwise. */
export type NumberPathAccumulator = (
  start: unknown,
  acc: { sum: number; count: number; min: number; max: number; leaves: number },
) => boolean;

const MAX_GENERATED_DEPTH = 6;

/**
 * Generates the fast path of numeric aggregates over one path (see above): nested loops add the
 * numbers in local variables, with no call per leaf. Anything unusual (a currency, text, a
 * non-finite number, an array inside an array) makes it return false, and the caller redoes the
 * walk with the general rules and their errors; `extremes` adds MIN/MAX tracking. The loops are unrolled per level (an array or
 * an object may meet each segment), so paths deeper than 6 segments are not generated.
 */
export function generateNumberAccumulator(
  path: CompiledPath,
  extremes: boolean,
): NumberPathAccumulator | undefined {
  const n = path.segments.length;
  if (!codegenAvailable() || n > MAX_GENERATED_DEPTH) return undefined;
  const leaf = (x: string): string =>
    `leaves++; if (typeof ${x} === 'number' && ${x} - ${x} === 0) { sum += ${x}; count++;${extremes ? ` if (${x} < min) min = ${x}; if (${x} > max) max = ${x};` : ''} } else if (${x} !== null && ${x} !== undefined) return false;`;
  const load = (x: string, i: number): string => {
    const key = JSON.stringify(path.segments[i]);
    const own = path.guarded[i] === true ? ` && Object.hasOwn(${x}, ${key})` : '';
    return `(typeof ${x} === 'object' && ${x} !== null${own} ? ${x}[${key}] : undefined)`;
  };
  const level = (x: string, i: number): string => {
    if (i === n) {
      return `if (Array.isArray(${x})) { for (let j = 0; j < ${x}.length; j++) { const e = ${x}[j]; ${leaf('e')} } } else { ${leaf(x)} }`;
    }
    const item = `y${i}`;
    return [
      `if (Array.isArray(${x})) {`,
      `  for (let k${i} = 0; k${i} < ${x}.length; k${i}++) {`,
      `    const ${item} = ${x}[k${i}];`,
      `    if (Array.isArray(${item})) return false;`,
      `    const a${i} = ${load(item, i)};`,
      `    ${level(`a${i}`, i + 1)}`,
      '  }',
      '} else {',
      `  const b${i} = ${load(x, i)};`,
      `  ${level(`b${i}`, i + 1)}`,
      '}',
    ].join('\n');
  };
  const body = [
    "'use strict';",
    'return function accumulate(v, acc) {',
    '  let sum = 0, count = 0, min = Infinity, max = -Infinity, leaves = 0;',
    `  ${level('v', 0)}`,
    '  acc.sum = sum; acc.count = count; acc.min = min; acc.max = max; acc.leaves = leaves;',
    '  return true;',
    '};',
  ].join('\n');
  return new Function(body)() as NumberPathAccumulator;
}
