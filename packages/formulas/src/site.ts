import type { Span } from './ast.ts';
import { FormulaError } from './formula-error.ts';
import type { FormulaErrorCode } from './formula-error-code.ts';

/** Where an operator or function is applied: its name and its span, for error messages. */
export interface Site {
  readonly name: string;
  readonly span: Span;
}

/** Throws the VALUE_ERROR of an operator or function, naming it and its position. */
export function valueError(site: Site, code: FormulaErrorCode, message: string): never {
  throw new FormulaError(
    code,
    `${site.name} at columns ${site.span.start + 1}-${site.span.end}: ${message}`,
    {
      span: site.span,
    },
  );
}
