import type { FormulaAst } from '../ast.ts';
import type { Compiled } from '../compile/compiled.ts';
import type { EvalContext } from '../eval-context.ts';
import type { BroadcastMode } from '../formula-function.ts';
import type { Site } from '../site.ts';
import type { FormulaScope, FormulaValue } from '../values.ts';

/** Documentation groups of the built-in functions. */
export type FunctionCategory =
  | 'logical'
  | 'information'
  | 'math'
  | 'text'
  | 'date'
  | 'array'
  | 'host';

/** A documented example: evaluating `formula` against `scope` gives `result` (checked by a test). */
export interface FunctionExample {
  readonly formula: string;
  readonly scope?: FormulaScope;
  readonly result: FormulaValue;
}

/** A built-in function: metadata plus either a per-scalar `apply` or a custom `compile`. */
export interface BuiltinFunction {
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly broadcast: BroadcastMode;
  readonly nulls: 'propagate' | 'pass';
  readonly async: boolean;
  readonly category: FunctionCategory;
  readonly signature: string;
  readonly summary: string;
  readonly examples: readonly FunctionExample[];
  /** Called with evaluated arguments, after broadcasting and NULL propagation. */
  readonly apply?: (
    args: readonly FormulaValue[],
    site: Site,
    context: EvalContext,
  ) => FormulaValue;
  /** For lazy or fused functions (IF, AND, SUM over a path): builds the closure itself. */
  readonly compile?: (
    args: readonly Compiled[],
    site: Site,
    asts: readonly FormulaAst[],
  ) => Compiled;
}

type Defaults = 'broadcast' | 'nulls' | 'async' | 'maxArgs';

/** Declares a built-in with defaults: scalar (broadcasting), NULL-propagating, synchronous. */
export function builtin(
  definition: Omit<BuiltinFunction, Defaults> & Partial<Pick<BuiltinFunction, Defaults>>,
): BuiltinFunction {
  return {
    broadcast: 'all',
    nulls: 'propagate',
    async: false,
    maxArgs: definition.minArgs,
    ...definition,
  };
}
