import type { FormulaAst } from '@docflow/formulas';
import { type FormulaProblem, safeParseFormula } from './safe-parse-formula.ts';

/** A piece of an operand template. */
export type OperandPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'formula'; readonly source: string; readonly ast: FormulaAst };

/**
 * A parsed CONDITIONAL operand (docs/decisions/0002-conditional-operands.md):
 * - `literal`: no `{{ }}`; the text itself (compared as a number when it reads as one);
 * - `formula`: the whole operand is one `{{ formula }}`; its value keeps its type;
 * - `template`: text with `{{ formula }}` parts; the result is text.
 */
export type ParsedOperand =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'formula'; readonly source: string; readonly ast: FormulaAst }
  | { readonly kind: 'template'; readonly parts: readonly OperandPart[] };

/** A problem in an operand, at a UTF-16 offset into it. */
export type OperandError = FormulaProblem;

/** The result of {@link parseOperand}. */
export type OperandParseResult =
  | { readonly ok: true; readonly operand: ParsedOperand }
  | { readonly ok: false; readonly errors: readonly OperandError[] };

/**
 * Parses a CONDITIONAL operand: text in which each `{{ … }}` holds a formula
 * (`{{extract1.total}}`, `{{classify1}}`, `Total: {{extract1.total}}`). Never throws.
 *
 * @example
 * parseOperand('{{extract1.total}}'); // { ok: true, operand: { kind: 'formula', … } }
 * parseOperand('1000');               // { ok: true, operand: { kind: 'literal', text: '1000' } }
 */
export function parseOperand(source: string): OperandParseResult {
  const parts: OperandPart[] = [];
  const errors: OperandError[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    if (open === -1) {
      parts.push({ kind: 'text', text: source.slice(at) });
      break;
    }
    if (open > at) parts.push({ kind: 'text', text: source.slice(at, open) });
    const close = source.indexOf('}}', open + 2);
    if (close === -1) {
      errors.push({ message: '"{{" has no matching "}}"', offset: open });
      break;
    }
    const inner = source.slice(open + 2, close);
    at = close + 2;
    if (inner.trim() === '') {
      errors.push({ message: '"{{ }}" holds no formula', offset: open });
      continue;
    }
    const parsed = safeParseFormula(inner);
    if (parsed.ok) {
      parts.push({ kind: 'formula', source: inner, ast: parsed.ast });
    } else {
      for (const e of parsed.errors) {
        // The parser's own columns count from the start of the formula inside the braces.
        errors.push({
          message: `the formula of the "{{" at column ${open + 1}: ${e.message}`,
          offset: open + 2 + e.offset,
        });
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  const formulas = parts.filter((p) => p.kind === 'formula');
  const onlyFormula =
    formulas.length === 1 && parts.every((p) => p.kind === 'formula' || p.text.trim() === '');
  if (onlyFormula && formulas[0]) {
    return { ok: true, operand: formulas[0] };
  }
  if (formulas.length === 0) return { ok: true, operand: { kind: 'literal', text: source } };
  return { ok: true, operand: { kind: 'template', parts } };
}
