import type { EvalContext } from '../eval-context.ts';
import { FormulaError, isFormulaError } from '../formula-error.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import type { BroadcastMode, FormulaFunction } from '../formula-function.ts';
import type { BuiltinFunction } from '../functions/builtin-function.ts';
import { type Site, valueError } from '../site.ts';
import { describeValue, type FormulaValue, isCurrency } from '../values.ts';
import { boundedText, MAX_TEXT_LENGTH, spendArray, textTooLong } from '../work-meter.ts';
import { broadcastN } from './broadcast.ts';

/** Which argument positions broadcast under a {@link BroadcastMode}. */
export function broadcastPredicate(mode: BroadcastMode): (index: number) => boolean {
  if (mode === 'all') return () => true;
  if (mode === 'none') return () => false;
  const last = mode[mode.length - 1];
  return (index) =>
    mode.includes(index) || (last !== undefined && index > last && mode.includes(last));
}

function hasNull(args: readonly FormulaValue[]): boolean {
  for (const arg of args) if (arg === null || arg === undefined) return true;
  return false;
}

const predicates = new WeakMap<object, (index: number) => boolean>();

function predicateOf(fn: BuiltinFunction | FormulaFunction): (index: number) => boolean {
  let predicate = predicates.get(fn);
  if (predicate === undefined) {
    predicate = broadcastPredicate(fn.broadcast);
    predicates.set(fn, predicate);
  }
  return predicate;
}

/** Applies a built-in to evaluated arguments: broadcasting, NULL propagation, then `apply`. */
export function applyBuiltin(
  fn: BuiltinFunction,
  args: readonly FormulaValue[],
  site: Site,
  context: EvalContext,
): FormulaValue {
  const apply = fn.apply;
  if (apply === undefined) throw new Error(`${fn.name} has no apply`);
  if (fn.broadcast === 'none') {
    return fn.nulls === 'propagate' && hasNull(args)
      ? null
      : bounded(apply(args, site, context), site);
  }
  return broadcastN(args, predicateOf(fn), site, (row) =>
    fn.nulls === 'propagate' && hasNull(row) ? null : bounded(apply(row, site, context), site),
  );
}

/** A built-in's result, unless it is text longer than a text may be (UPPER of a long field, …). */
function bounded(value: FormulaValue, site: Site): FormulaValue {
  return typeof value === 'string' && value.length > MAX_TEXT_LENGTH
    ? textTooLong(value.length, site)
    : value;
}

function checkResult(value: unknown, site: Site): FormulaValue {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'string':
      return boundedText(value, site);
    case 'number':
      if (Number.isFinite(value)) return value;
      break;
    case 'object':
      if (Array.isArray(value)) {
        spendArray(value.length, site);
        return value.map((item) => checkResult(item, site));
      }
      if (isCurrency(value)) return value;
      break;
  }
  return valueError(
    site,
    FormulaErrorCode.HostFunctionFailed,
    `returned ${typeof value === 'number' ? String(value) : describeValue(value)}, which is not a formula value`,
  );
}

function hostFailure(site: Site, error: unknown): FormulaError {
  if (isFormulaError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new FormulaError(
    FormulaErrorCode.HostFunctionFailed,
    `${site.name} at columns ${site.span.start + 1}-${site.span.end}: failed: ${message}`,
    { span: site.span, cause: error },
  );
}

function stableKey(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs one asynchronous call inside the replaying evaluator: the first time a call (site and
 * arguments) is met it is started and NULL stands in for it; the evaluation is replayed once the
 * started calls settle, and then the remembered result is used.
 */
export function callAsync(
  site: Site,
  args: readonly FormulaValue[],
  context: EvalContext,
  start: () => Promise<unknown>,
): FormulaValue {
  const state = context.async;
  if (state === undefined) {
    return valueError(
      site,
      FormulaErrorCode.AsyncFunctionInSyncEvaluation,
      'is asynchronous; evaluate this formula with evaluateRulesAsync or evaluateFormulaAsync',
    );
  }
  const key = `${site.span.start}:${site.name}:${stableKey(args)}`;
  const known = state.memo.get(key);
  if (known !== undefined) {
    if (known.state === 'done') return known.value;
    if (known.state === 'failed') throw hostFailure(site, known.error);
    return null;
  }
  state.memo.set(key, { state: 'pending' });
  state.waiting.push(
    Promise.resolve()
      .then(start)
      .then(
        (value) => {
          try {
            state.memo.set(key, { state: 'done', value: checkResult(value, site) });
          } catch (error) {
            state.memo.set(key, { state: 'failed', error });
          }
        },
        (error: unknown) => {
          state.memo.set(key, { state: 'failed', error });
        },
      ),
  );
  return null;
}

/** Applies a host function: arity, broadcasting, NULL propagation, sync or async call, result check. */
export function applyHost(
  fn: FormulaFunction,
  args: readonly FormulaValue[],
  site: Site,
  context: EvalContext,
): FormulaValue {
  if (args.length < fn.minArgs || args.length > fn.maxArgs) {
    valueError(
      site,
      FormulaErrorCode.InvalidArgument,
      `takes ${fn.minArgs === fn.maxArgs ? fn.minArgs : `${fn.minArgs} to ${fn.maxArgs}`} arguments but was given ${args.length}`,
    );
  }
  const callContext =
    context.signal === undefined ? { name: fn.name } : { name: fn.name, signal: context.signal };
  const one = (row: readonly FormulaValue[]): FormulaValue => {
    if (fn.nulls === 'propagate' && hasNull(row)) return null;
    if (fn.async) return callAsync(site, row, context, async () => fn.call(row, callContext));
    let result: unknown;
    try {
      result = fn.call(row, callContext);
    } catch (error) {
      throw hostFailure(site, error);
    }
    if (result instanceof Promise) {
      result.catch(() => {});
      valueError(
        site,
        FormulaErrorCode.HostFunctionFailed,
        'returned a promise; define it with async: true',
      );
    }
    return checkResult(result, site);
  };
  if (fn.broadcast === 'none') return one(args);
  return broadcastN(args, predicateOf(fn), site, one);
}
