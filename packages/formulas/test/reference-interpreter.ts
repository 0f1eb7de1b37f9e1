/**
 * A small tree-walking reference interpreter, written for clarity rather than speed, that the
 * compiled evaluator is checked against on random formulas and scopes. It shares the scalar
 * library (operators on two scalars, built-in `apply` functions, number accumulation) with the
 * package, and re-implements everything structural: path projection, broadcasting, the NULL
 * test, short-circuiting, lazy IF/IFS/IFERROR, aggregates and INCLUDES.
 */

import { toLogical, toText } from '../src/coerce.ts';
import { applyBuiltin } from '../src/compile/apply-function.ts';
import { negate, not, scalarOperators } from '../src/compile/operators.ts';
import type { EvalContext } from '../src/eval-context.ts';
import { foldCase } from '../src/fold-case.ts';
import { DEFAULT_CONTEXT } from '../src/formula-options.ts';
import { accumulateArgument, newAccumulator, withCode } from '../src/functions/aggregate.ts';
import { builtinFunctions } from '../src/functions/builtin-functions.ts';
import {
  type FormulaAst,
  FormulaErrorCode,
  type FormulaValue,
  isFormulaError,
} from '../src/index.ts';
import { type Site, valueError } from '../src/site.ts';

/** The outcome the interpreter and the compiled evaluator are compared on. */
export type Outcome = { ok: true; value: FormulaValue } | { ok: false; code: string };

function field(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return undefined;
  return Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}

function path(value: unknown, segments: readonly string[]): FormulaValue {
  if (segments.length === 0) {
    if (value instanceof Date) return value.toISOString();
    return value === undefined ? null : (value as FormulaValue);
  }
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown) => {
      const result = path(item, segments);
      return Array.isArray(result) ? result.map((r) => r ?? null) : [result];
    });
  }
  const [head, ...rest] = segments;
  return path(field(value, head as string), rest);
}

function zip(
  site: Site,
  values: FormulaValue[],
  broadcasts: (i: number) => boolean,
  f: (row: FormulaValue[]) => FormulaValue,
): FormulaValue {
  const lengths = values.flatMap((v, i) => (Array.isArray(v) && broadcasts(i) ? [v.length] : []));
  if (lengths.length === 0) return f(values);
  if (lengths.some((length) => length !== lengths[0])) {
    valueError(site, FormulaErrorCode.LengthMismatch, 'lengths differ');
  }
  return Array.from({ length: lengths[0] as number }, (_, k) =>
    zip(
      site,
      values.map((v, i) =>
        Array.isArray(v) && broadcasts(i) ? ((v as FormulaValue[])[k] ?? null) : v,
      ),
      broadcasts,
      f,
    ),
  );
}

const all = (): boolean => true;

function evaluate(node: FormulaAst, scope: unknown, context: EvalContext): FormulaValue {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean':
      return node.value;
    case 'null':
      return null;
    case 'path':
      return path(scope, node.segments);
    case 'unary': {
      const site = { name: node.operator, span: node.span };
      const value = evaluate(node.operand, scope, context);
      return zip(site, [value], all, ([v]) =>
        node.operator === 'NOT'
          ? not(v ?? null, site)
          : negate(v ?? null, site, node.operator === '-' ? -1 : 1),
      );
    }
    case 'binary': {
      const site = { name: node.operator, span: node.span };
      const op = node.operator;
      if (
        (op === '=' || op === '<>') &&
        (node.left.kind === 'null' || node.right.kind === 'null')
      ) {
        const other = evaluate(node.left.kind === 'null' ? node.right : node.left, scope, context);
        return zip(site, [other], all, ([v]) => (v === null) === (op === '='));
      }
      const left = evaluate(node.left, scope, context);
      if ((op === 'AND' || op === 'OR') && !Array.isArray(left)) {
        if (toLogical(left, site) === (op === 'OR')) return op === 'OR';
      }
      const right = evaluate(node.right, scope, context);
      return zip(site, [left, right], all, ([a, b]) =>
        scalarOperators[op](a ?? null, b ?? null, site),
      );
    }
    case 'call':
      return call(node, scope, context);
  }
}

function call(
  node: Extract<FormulaAst, { kind: 'call' }>,
  scope: unknown,
  context: EvalContext,
): FormulaValue {
  const site = { name: node.name, span: node.span };
  const arg = (i: number): FormulaValue => evaluate(node.args[i] as FormulaAst, scope, context);
  switch (node.name) {
    case 'IF': {
      const condition = arg(0);
      const otherwise = (): FormulaValue => (node.args.length > 2 ? arg(2) : false);
      if (!Array.isArray(condition)) {
        const test = toLogical(condition, site);
        return test === null ? null : test ? arg(1) : otherwise();
      }
      return zip(site, [condition, arg(1), otherwise()], all, ([k, a, b]) => {
        const test = toLogical(k, site);
        return test === null ? null : test ? (a ?? null) : (b ?? null);
      });
    }
    case 'IFERROR':
      try {
        return arg(0);
      } catch (error) {
        if (!isFormulaError(error)) throw error;
        return arg(1);
      }
    case 'SUM':
    case 'MIN':
    case 'MAX':
    case 'AVERAGE': {
      const values = node.args.map((_, i) => arg(i));
      const acc = newAccumulator();
      for (const value of values) accumulateArgument(acc, value, site);
      if (node.name === 'SUM') return withCode(acc, acc.sum);
      if (node.name === 'AVERAGE') {
        return acc.count === 0
          ? valueError(site, FormulaErrorCode.DivisionByZero, 'none')
          : withCode(acc, acc.sum / acc.count);
      }
      if (acc.count === 0) return withCode(acc, 0);
      return withCode(acc, node.name === 'MIN' ? acc.min : acc.max);
    }
    case 'INCLUDES': {
      const array = arg(0);
      const needles = arg(1);
      const one = (needle: FormulaValue): FormulaValue => {
        if (array === null || needle === null) return null;
        const folded = foldCase(toText(needle, site) ?? '');
        const hit = (element: unknown): boolean => {
          if (element === null || element === undefined) return false;
          if (Array.isArray(element)) return element.some(hit);
          if (typeof element === 'object' && !('iso_4217' in element)) {
            return valueError(site, FormulaErrorCode.TypeMismatch, 'object');
          }
          return foldCase(toText(element as FormulaValue, site) ?? '').includes(folded);
        };
        return Array.isArray(array) ? array.some(hit) : hit(array);
      };
      return Array.isArray(needles) ? needles.map((n) => one(n ?? null)) : one(needles);
    }
  }
  const fn = builtinFunctions.get(node.name);
  if (fn?.apply === undefined) {
    return valueError(site, FormulaErrorCode.UnknownFunction, 'unknown');
  }
  return applyBuiltin(
    fn,
    node.args.map((_, i) => arg(i)),
    site,
    context,
  );
}

/** Evaluates a syntax tree by walking it; errors become `{ ok: false, code }`. */
export function interpret(
  ast: FormulaAst,
  scope: unknown,
  context: EvalContext = DEFAULT_CONTEXT,
): Outcome {
  try {
    return { ok: true, value: evaluate(ast, scope, context) };
  } catch (error) {
    if (isFormulaError(error)) return { ok: false, code: error.code };
    throw error;
  }
}
