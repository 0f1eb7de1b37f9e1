import type { FormulaFunction, FormulaJudge } from './formula-function.ts';
import type { FormulaValue } from './values.ts';

/** The outcome of one asynchronous host call, remembered between replays. */
export type AsyncOutcome =
  | { readonly state: 'pending' }
  | { readonly state: 'done'; readonly value: FormulaValue }
  | { readonly state: 'failed'; readonly error: unknown };

/** Bookkeeping of an asynchronous evaluation (see `run-async.ts`). */
export interface AsyncState {
  readonly memo: Map<string, AsyncOutcome>;
  waiting: Promise<void>[];
}

/** Everything a compiled formula needs at evaluation besides the scope. */
export interface EvalContext {
  readonly functions: ReadonlyMap<string, FormulaFunction>;
  readonly now: () => Date;
  readonly judge: FormulaJudge | undefined;
  readonly signal: AbortSignal | undefined;
  /** Work units one evaluation may spend (see `work-meter.ts`). */
  readonly workBudget: number;
  /** Present only while evaluating asynchronously. */
  readonly async: AsyncState | undefined;
}
