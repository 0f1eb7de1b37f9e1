import type { FormulaValue } from './values.ts';

/** What a host function receives besides its arguments. */
export interface FunctionContext {
  /** The function's name as called (upper-case). */
  readonly name: string;
  /** Aborts with the evaluation (async evaluation only). */
  readonly signal?: AbortSignal;
}

/**
 * How a function treats array arguments: `'all'` applies it per item over every argument that is
 * an array (a scalar function), `'none'` passes arrays whole (an aggregate), or the list of
 * argument positions (0-based) that broadcast; positions past the end of the list repeat the
 * last one.
 */
export type BroadcastMode = 'all' | 'none' | readonly number[];

/**
 * A function callable from formulas: the built-ins and the host functions made by
 * {@link defineFunction}. Host functions receive fully evaluated arguments and may be async.
 */
export interface FormulaFunction {
  /** Upper-case name; calls are case-insensitive. */
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly broadcast: BroadcastMode;
  /** `'propagate'`: a NULL argument makes the result NULL without calling; `'pass'`: NULLs are passed in. */
  readonly nulls: 'propagate' | 'pass';
  /** True if `call` returns a promise; such formulas need `evaluateRulesAsync`/`evaluateFormulaAsync`. */
  readonly async: boolean;
  /** Human-readable signature, e.g. `FUZZYMATCH(text, target, threshold)`. */
  readonly signature: string;
  /** One-sentence description for documentation. */
  readonly summary: string;
  readonly call: (
    args: readonly FormulaValue[],
    context: FunctionContext,
  ) => FormulaValue | Promise<FormulaValue>;
}

/** The judge behind LLMJUDGE: decides whether two values mean the same thing. */
export type FormulaJudge = (
  a: FormulaValue,
  b: FormulaValue,
  context: { readonly signal?: AbortSignal },
) => boolean | Promise<boolean>;
