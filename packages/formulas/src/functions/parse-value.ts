import { parseNumericText } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { describeValue, type FormulaValue, isCurrency } from '../values.ts';
import { COST, spend } from '../work-meter.ts';
import { parseDateText } from './excel-date.ts';

/**
 * VALUE(text): numbers with thousands separators, a leading currency symbol, a trailing percent,
 * accounting parentheses for negatives, `hh:mm[:ss]` times (fractions of a day) and dates.
 */
export function parseValue(value: FormulaValue, site: Site): number {
  if (typeof value === 'number') return value;
  if (isCurrency(value)) return value.amount;
  if (typeof value !== 'string') {
    return valueError(
      site,
      FormulaErrorCode.TypeMismatch,
      `expects text, got ${describeValue(value)}`,
    );
  }
  spend(COST.parse, site);
  let s = value.trim();
  let sign = 1;
  const parenthesized = /^\((.*)\)$/.exec(s);
  if (parenthesized !== null) {
    sign = -1;
    s = (parenthesized[1] as string).trim();
  }
  if (/^[+-]/.test(s)) {
    if (s[0] === '-') sign = -sign;
    s = s.slice(1).trim();
  }
  s = s.replace(/^[$€£¥]\s*/, '');
  let scale = 1;
  if (s.endsWith('%')) {
    scale = 0.01;
    s = s.slice(0, -1).trim();
  }
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(s)) s = s.replaceAll(',', '');
  const n = parseNumericText(s);
  if (n !== undefined) return sign * n * scale;
  const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (time !== null && sign === 1 && scale === 1) {
    return (Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0)) / 86400;
  }
  const date = sign === 1 && scale === 1 ? parseDateText(s) : undefined;
  if (date !== undefined) return date;
  return valueError(
    site,
    FormulaErrorCode.TypeMismatch,
    `cannot read ${describeValue(value)} as a number`,
  );
}
