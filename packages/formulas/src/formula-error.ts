import type { Span } from './ast.ts';
import type { FormulaErrorCode } from './formula-error-code.ts';

/** Options for {@link FormulaError}. */
export interface FormulaErrorOptions {
  readonly span?: Span;
  readonly cause?: unknown;
}

/**
 * The error of this package. Thrown for host misuse (a bad `defineFunction`), and used inside
 * evaluation for VALUE_ERRORs, which the evaluate functions turn into result values.
 */
export class FormulaError extends Error {
  override readonly name = 'FormulaError';
  readonly code: FormulaErrorCode;
  readonly span: Span | undefined;

  constructor(code: FormulaErrorCode, message: string, options: FormulaErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.span = options.span;
  }
}

/** Cross-realm-safe guard (does not rely on `instanceof`). */
export function isFormulaError(error: unknown, code?: FormulaErrorCode): error is FormulaError {
  return (
    error instanceof Error &&
    error.name === 'FormulaError' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    (code === undefined || (error as FormulaError).code === code)
  );
}
