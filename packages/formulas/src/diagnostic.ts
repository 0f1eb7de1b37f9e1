import type { Span } from './ast.ts';
import type { FormulaErrorCode } from './formula-error-code.ts';

/** A problem found in a formula: a stable code, a readable message and where it is. */
export interface Diagnostic {
  readonly code: FormulaErrorCode;
  readonly message: string;
  readonly span: Span;
}
