import type { EvalContext } from '../eval-context.ts';
import type { FormulaScope, FormulaValue } from '../values.ts';

/** A compiled node: a closure from scope and context to a value; VALUE_ERRORs are thrown. */
export type Compiled = (scope: FormulaScope, context: EvalContext) => FormulaValue;
