import type { FormulaAst } from './ast.ts';
import { compileProgram, dependenciesOf } from './compile/program.ts';
import type { Diagnostic } from './diagnostic.ts';
import { contextFromOptions, type FormulaOptions } from './formula-options.ts';
import { type FormulaEvaluation, needsAsync, runProgram, runProgramAsync } from './run-program.ts';
import type { FormulaScope } from './values.ts';

/** A formula compiled once, to be evaluated many times. */
export interface CompiledFormula {
  readonly source: string;
  readonly ast: FormulaAst;
  /** The variable paths the formula reads, in order of first appearance (`extract1.total`). */
  readonly dependencies: readonly string[];
  /** True if it calls an asynchronous function (LLMJUDGE, async host functions). */
  readonly isAsync: boolean;
  /** Evaluates synchronously; an async call in it is a VALUE_ERROR (use `evaluateAsync`). */
  evaluate(scope: FormulaScope): FormulaEvaluation;
  /** Evaluates, awaiting asynchronous calls. */
  evaluateAsync(scope: FormulaScope): Promise<FormulaEvaluation>;
}

/** The result of {@link compileFormula}. */
export type CompileResult =
  | { readonly ok: true; readonly formula: CompiledFormula }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Parses and compiles a formula to closures: compile once, evaluate many times, synchronously.
 * Throws only for bad options (see `FormulaOptions`); a formula that does not parse gives
 * diagnostics.
 *
 * @example
 * const compiled = compileFormula('SUM(extract1.line_items.amount) = extract1.total');
 * if (compiled.ok) compiled.formula.evaluate(scope); // { ok: true, value: true }
 */
export function compileFormula(source: string, options?: FormulaOptions): CompileResult {
  const context = contextFromOptions(options);
  // The caller keeps the compiled formula, so it does not go through the evaluate cache.
  const result = compileProgram(source);
  if (!result.ok) return result;
  const { program } = result;
  let dependencies: readonly string[] | undefined;
  const formula: CompiledFormula = {
    source,
    ast: program.ast,
    // Computed on first use: most callers never ask, and parse + compile stays cheaper.
    get dependencies() {
      dependencies ??= dependenciesOf(program.ast);
      return dependencies;
    },
    isAsync: needsAsync(program, context),
    evaluate(scope) {
      return runProgram(program, scope, context, source);
    },
    evaluateAsync(scope) {
      return runProgramAsync(program, scope, context, source);
    },
  };
  return { ok: true, formula };
}
