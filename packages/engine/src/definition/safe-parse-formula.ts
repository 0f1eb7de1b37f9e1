import { type FormulaAst, parseFormula } from '@docflow/formulas';

/** A problem in a formula, at a UTF-16 offset into its source. */
export interface FormulaProblem {
  readonly message: string;
  readonly offset: number;
}

/** parseFormula with errors as values and offsets, even if the parser itself fails. */
export function safeParseFormula(
  source: string,
):
  | { readonly ok: true; readonly ast: FormulaAst }
  | { readonly ok: false; readonly errors: readonly FormulaProblem[] } {
  try {
    const result = parseFormula(source);
    if (result.ok) return { ok: true, ast: result.ast };
    return {
      ok: false,
      errors: result.diagnostics.map((d) => ({ message: d.message, offset: d.span.start })),
    };
  } catch (error) {
    // A parser bug must not turn a definition check into a crash; report it as a parse error.
    return { ok: false, errors: [{ message: String(error), offset: 0 }] };
  }
}
