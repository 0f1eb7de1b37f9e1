import type { Program } from './compile/program.ts';
import type { Diagnostic } from './diagnostic.ts';
import type { AsyncState, EvalContext } from './eval-context.ts';
import { isFormulaError } from './formula-error.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import type { FormulaScope, FormulaValue } from './values.ts';
import { enterMeter, leaveMeter, type WorkMeter } from './work-meter.ts';

/** The result of evaluating one formula. */
export type FormulaEvaluation =
  | { readonly ok: true; readonly value: FormulaValue }
  | {
      readonly ok: false;
      readonly failureReason: 'PARSE_ERROR' | 'VALUE_ERROR';
      /** A readable message naming the function or operator and the column. */
      readonly error: string;
      readonly diagnostics: readonly Diagnostic[];
    };

/** Turns an exception thrown during evaluation into a VALUE_ERROR result. */
export function valueErrorResult(error: unknown, source: string): FormulaEvaluation {
  if (isFormulaError(error)) {
    const span = error.span ?? { start: 0, end: source.length };
    return {
      ok: false,
      failureReason: 'VALUE_ERROR',
      error: error.message,
      diagnostics: [{ code: error.code, message: error.message, span }],
    };
  }
  // Not a formula error: hostile data (e.g. nesting deep enough to overflow the stack).
  const message = `The formula could not be evaluated: ${error instanceof Error ? error.message : String(error)}`;
  return {
    ok: false,
    failureReason: 'VALUE_ERROR',
    error: message,
    diagnostics: [
      { code: FormulaErrorCode.Internal, message, span: { start: 0, end: source.length } },
    ],
  };
}

/** Parse failures as an evaluation result. */
export function parseErrorResult(diagnostics: readonly Diagnostic[]): FormulaEvaluation {
  return {
    ok: false,
    failureReason: 'PARSE_ERROR',
    error: diagnostics.map((d) => d.message).join('; '),
    diagnostics,
  };
}

/** A fresh meter for one evaluation under `context`'s budget. */
export function newMeter(context: EvalContext): WorkMeter {
  return { spent: 0, limit: context.workBudget };
}

/**
 * Evaluates a program synchronously; VALUE_ERRORs come back as values. The work it does is
 * charged to `meter` (a fresh one by default), so that hostile data or formulas end as
 * `FORMULA_BUDGET_EXCEEDED` instead of holding the thread.
 */
export function runProgram(
  program: Program,
  scope: FormulaScope,
  context: EvalContext,
  source: string,
  meter: WorkMeter = newMeter(context),
): FormulaEvaluation {
  const outer = enterMeter(meter);
  try {
    return { ok: true, value: program.run(scope, context) };
  } catch (error) {
    return valueErrorResult(error, source);
  } finally {
    leaveMeter(outer);
  }
}

const MAX_REPLAYS = 10_000;

/**
 * Evaluates a program that calls asynchronous functions. The synchronous closures run; each
 * asynchronous call not yet known is started and stands in as NULL; once the started calls
 * settle, the evaluation is replayed with their results. Calls discovered in one pass run
 * concurrently. Only formulas that call async functions pay for this. The passes share one
 * budget: each is synchronous and charged to the evaluation's meter.
 */
export async function runProgramAsync(
  program: Program,
  scope: FormulaScope,
  base: EvalContext,
  source: string,
): Promise<FormulaEvaluation> {
  const state: AsyncState = { memo: new Map(), waiting: [] };
  const context: EvalContext = { ...base, async: state };
  const meter = newMeter(base);
  for (let pass = 0; pass < MAX_REPLAYS; pass++) {
    base.signal?.throwIfAborted();
    state.waiting = [];
    let value: FormulaValue = null;
    let failure: unknown;
    let failed = false;
    const outer = enterMeter(meter);
    try {
      value = program.run(scope, context);
    } catch (error) {
      failed = true;
      failure = error;
    } finally {
      leaveMeter(outer);
    }
    if (state.waiting.length === 0) {
      return failed ? valueErrorResult(failure, source) : { ok: true, value };
    }
    await Promise.all(state.waiting);
  }
  return valueErrorResult(new Error('too many asynchronous calls'), source);
}

/** True if running the program may call an asynchronous function under this context. */
export function needsAsync(program: Program, context: EvalContext): boolean {
  return program.calls.some(
    (name) => name === 'LLMJUDGE' || context.functions.get(name)?.async === true,
  );
}
