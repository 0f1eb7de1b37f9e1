import type { EvalContext } from './eval-context.ts';
import { FormulaError } from './formula-error.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import type { FormulaFunction, FormulaJudge } from './formula-function.ts';
import { builtinFunctions } from './functions/builtin-functions.ts';
import { DEFAULT_WORK_BUDGET } from './work-meter.ts';

/** Options of compilation and evaluation. */
export interface FormulaOptions {
  /** Host functions (made with `defineFunction`), callable by name from formulas. */
  readonly functions?: readonly FormulaFunction[];
  /** The judge behind LLMJUDGE; without it LLMJUDGE is a VALUE_ERROR. */
  readonly judge?: FormulaJudge;
  /** The clock of TODAY() (default: the system clock). */
  readonly now?: () => Date;
  /** Aborts asynchronous evaluation; passed on to async host functions and the judge. */
  readonly signal?: AbortSignal;
  /**
   * Work units one evaluation may spend before it ends as a VALUE_ERROR
   * (`FORMULA_BUDGET_EXCEEDED`); default 1,000,000, about 5 ms of the slowest kinds of work. One
   * unit is about one array item through an operator or function, or 16 characters of text.
   */
  readonly workBudget?: number;
}

const systemNow = (): Date => new Date();

/** The evaluation context of no options: shared, so plain evaluations allocate none. */
export const DEFAULT_CONTEXT: EvalContext = {
  functions: new Map(),
  now: systemNow,
  judge: undefined,
  signal: undefined,
  workBudget: DEFAULT_WORK_BUDGET,
  async: undefined,
};

/**
 * Builds the evaluation context of some options. Throws a {@link FormulaError} for host misuse:
 * a function that shadows a built-in, two functions with one name, a value that is not a
 * function definition, or a work budget that is not a positive number.
 */
export function contextFromOptions(options: FormulaOptions | undefined): EvalContext {
  if (options === undefined) return DEFAULT_CONTEXT;
  const functions = new Map<string, FormulaFunction>();
  if (options.functions !== undefined && !Array.isArray(options.functions)) {
    throw new FormulaError(
      FormulaErrorCode.InvalidFunctionDefinition,
      'options.functions must be an array of functions made by defineFunction',
    );
  }
  (options.functions ?? []).forEach((fn, index) => {
    if (
      typeof fn !== 'object' ||
      fn === null ||
      typeof fn.call !== 'function' ||
      typeof fn.name !== 'string'
    ) {
      throw new FormulaError(
        FormulaErrorCode.InvalidFunctionDefinition,
        `options.functions[${index}] is not a function made by defineFunction`,
      );
    }
    const name = fn.name.toUpperCase();
    if (builtinFunctions.has(name) || name === 'NOT') {
      throw new FormulaError(
        FormulaErrorCode.FunctionConflict,
        `options.functions[${index}] (${name}) has the name of a built-in function`,
      );
    }
    if (functions.has(name)) {
      throw new FormulaError(
        FormulaErrorCode.FunctionConflict,
        `options.functions[${index}] (${name}) is defined twice`,
      );
    }
    functions.set(name, fn);
  });
  const budget = options.workBudget ?? DEFAULT_WORK_BUDGET;
  if (typeof budget !== 'number' || !(budget > 0)) {
    throw new FormulaError(
      FormulaErrorCode.InvalidOptions,
      `options.workBudget must be a positive number, got ${String(budget)}`,
    );
  }
  return {
    functions,
    now: options.now ?? systemNow,
    judge: options.judge,
    signal: options.signal,
    workBudget: budget,
    async: undefined,
  };
}
