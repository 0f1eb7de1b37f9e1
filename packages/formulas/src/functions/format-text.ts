import { numberToText, parseNumericText, toNumber, toText } from '../coerce.ts';
import { compileNumberFormat, isDateFormat } from '../number-format.ts';
import type { Site } from '../site.ts';
import { type FormulaValue, isCurrency } from '../values.ts';
import { COST, spend } from '../work-meter.ts';
import { toSerial } from './excel-date.ts';

/**
 * Excel's TEXT(value, format): the number format of {@link compileNumberFormat} applied to the
 * value, read as a date (a serial number or date text) when the format shows dates.
 */
export function formatText(value: FormulaValue, format: string, site: Site): string {
  spend(COST.format + format.length * COST.char, site);
  if (format === '' || /^general$/i.test(format) || format === '@') {
    return toText(value, site, 'the value') ?? '';
  }
  const formatter = compileNumberFormat(format);
  if (isDateFormat(format)) return formatter(toSerial(value, site, 'the value'));
  // Text that is not a number passes through, as in Excel: TEXT("abc", "0.00") is "abc".
  if (typeof value === 'string' && parseNumericText(value) === undefined) return value;
  const n = isCurrency(value) ? value.amount : (toNumber(value, site, 'the value') ?? 0);
  const result = formatter(n);
  return result === '' && n !== 0 ? numberToText(n) : result;
}
