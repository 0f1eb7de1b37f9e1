import { evaluateFormula } from '@docflow/formulas';
import type { JsonValue } from '@docflow/storage';
import { parseOperand } from '../../definition/conditional-operand.ts';

/**
 * CONDITIONAL's conditions: whether one holds over a path's formula scope
 * (docs/decisions/0002-conditional-operands.md). Synchronous and pure.
 */

/** One condition of a CONDITIONAL step's config. */
export interface Condition {
  readonly id: string;
  readonly type: 'IF' | 'ELSE_IF' | 'ELSE';
  readonly operation?: string;
  readonly leftOperand?: string;
  readonly rightOperand?: string;
}

/** An operand's value: literal text (a number when it reads as one), a formula's value, or a template's text. */
function operandValue(
  source: string | undefined,
  scope: Record<string, JsonValue>,
  options: Record<string, unknown> | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (source === undefined) return { ok: true, value: null };
  const parsed = parseOperand(source);
  if (!parsed.ok) return { ok: false, error: parsed.errors.map((e) => e.message).join('; ') };
  const operand = parsed.operand;
  if (operand.kind === 'literal') {
    const n = Number(operand.text);
    return { ok: true, value: operand.text.trim() !== '' && Number.isFinite(n) ? n : operand.text };
  }
  const run = (formula: string) => {
    const r = evaluateFormula(formula, scope, options as never);
    return r.ok
      ? { ok: true as const, value: r.value as unknown }
      : { ok: false as const, error: r.error };
  };
  if (operand.kind === 'formula') return run(operand.source);
  let text = '';
  for (const part of operand.parts) {
    if (part.kind === 'text') text += part.text;
    else {
      const r = run(part.source);
      if (!r.ok) return r;
      text += r.value === null || r.value === undefined ? '' : String(r.value);
    }
  }
  return { ok: true, value: text };
}

function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'amount' in value) {
    return (value as { amount: unknown }).amount;
  }
  return value;
}

function equal(a: unknown, b: unknown): boolean {
  const x = plain(a);
  const y = plain(b);
  if (typeof x === 'number' && typeof y === 'number') {
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  }
  if (typeof x === 'string' && typeof y === 'string') return x.toLowerCase() === y.toLowerCase();
  return JSON.stringify(x) === JSON.stringify(y);
}

function compare(a: unknown, b: unknown): number | undefined {
  const x = plain(a);
  const y = plain(b);
  const nx =
    typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : Number.NaN;
  const ny =
    typeof y === 'number' ? y : typeof y === 'string' && y.trim() !== '' ? Number(y) : Number.NaN;
  if (Number.isFinite(nx) && Number.isFinite(ny)) return nx - ny;
  if (typeof x === 'string' && typeof y === 'string') return x.localeCompare(y);
  return undefined;
}

function contains(a: unknown, b: unknown): boolean {
  const needle = String(plain(b) ?? '').toLowerCase();
  if (Array.isArray(a))
    return a.some((item) => equal(item, b) || String(plain(item)).toLowerCase().includes(needle));
  return String(plain(a) ?? '')
    .toLowerCase()
    .includes(needle);
}

/** Whether one condition holds (docs/decisions/0002-conditional-operands.md). */
export function holds(
  c: Condition,
  scope: Record<string, JsonValue>,
  options: Record<string, unknown> | undefined,
): { ok: true; value: boolean } | { ok: false; error: string } {
  if (c.type === 'ELSE') return { ok: true, value: true };
  if (c.operation === 'FORMULA') {
    const r = evaluateFormula(c.leftOperand ?? 'FALSE', scope, options as never);
    return r.ok ? { ok: true, value: r.value === true } : { ok: false, error: r.error };
  }
  const left = operandValue(c.leftOperand, scope, options);
  if (!left.ok) return left;
  const isNull = left.value === null || left.value === undefined || left.value === '';
  switch (c.operation) {
    case 'IS_NULL':
      return { ok: true, value: isNull };
    case 'IS_NOT_NULL':
      return { ok: true, value: !isNull };
    case 'NO_OP':
    case undefined:
      return { ok: true, value: false };
  }
  const right = operandValue(c.rightOperand, scope, options);
  if (!right.ok) return right;
  const order = compare(left.value, right.value);
  switch (c.operation) {
    case 'EQUALS':
      return { ok: true, value: equal(left.value, right.value) };
    case 'NOT_EQUALS':
      return { ok: true, value: !equal(left.value, right.value) };
    case 'GT':
      return { ok: true, value: order !== undefined && order > 0 };
    case 'GTE':
      return { ok: true, value: order !== undefined && order >= 0 };
    case 'LT':
      return { ok: true, value: order !== undefined && order < 0 };
    case 'LTE':
      return { ok: true, value: order !== undefined && order <= 0 };
    case 'CONTAINS':
      return { ok: true, value: contains(left.value, right.value) };
    case 'NOT_CONTAINS':
      return { ok: true, value: !contains(left.value, right.value) };
    default:
      return { ok: false, error: `unknown operation ${String(c.operation)}` };
  }
}
