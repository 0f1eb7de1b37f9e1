import { toNumber } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { describeValue, type FormulaValue } from '../values.ts';
import { COST, spend } from '../work-meter.ts';

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(1899, 11, 30);

/** A calendar date. */
export interface YearMonthDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/**
 * The Excel serial number (1900 date system) of a date given by year, month and day; months and
 * days overflow as in Excel's DATE. Serials before 1900-03-01 are one less than the day count,
 * because Excel counts the non-existent 1900-02-29 (serial 60).
 */
export function serialFromParts(year: number, month: number, day: number): number {
  const utc = Date.UTC(year, month - 1, 1) + (day - 1) * DAY_MS;
  const days = Math.round((utc - EPOCH) / DAY_MS);
  return days <= 60 ? days - 1 : days;
}

/** The calendar date of a serial number (its integer part), with Excel's 1900-02-29 at 60. */
export function partsFromSerial(serial: number): YearMonthDay {
  const whole = Math.floor(serial);
  if (whole === 0) return { year: 1900, month: 1, day: 0 };
  if (whole === 60) return { year: 1900, month: 2, day: 29 };
  const date = new Date(EPOCH + (whole < 60 ? whole + 1 : whole) * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The serial number of a JavaScript date's UTC calendar day. */
export function serialFromDate(date: Date): number {
  return serialFromParts(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function monthNumber(name: string): number | undefined {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index === -1 ? undefined : index + 1;
}

function valid(year: number, month: number, day: number): number | undefined {
  if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  return serialFromParts(year, month, day);
}

/**
 * Reads a date written as text; undefined if it is not one. Accepted: ISO `2024-01-15` (a time
 * part after `T` or a space is ignored), `2024/01/15`, US `1/15/2024`, `15 Jan 2024`,
 * `15-Jan-2024`, `Jan 15, 2024`, `January 15 2024`.
 */
export function parseDateText(text: string): number | undefined {
  const s = text.trim();
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m !== null) return valid(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m !== null) return valid(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})[ -]([A-Za-z]{3,9})\.?[ -,]+(\d{4})$/.exec(s);
  if (m !== null) {
    const month = monthNumber(m[2] as string);
    return month === undefined ? undefined : valid(Number(m[3]), month, Number(m[1]));
  }
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m !== null) {
    const month = monthNumber(m[1] as string);
    return month === undefined ? undefined : valid(Number(m[3]), month, Number(m[2]));
  }
  return undefined;
}

/** A date argument as a serial number: a non-negative number, or text that {@link parseDateText} reads. */
export function toSerial(value: FormulaValue, site: Site, what: string): number {
  if (typeof value === 'string') {
    spend(COST.parse + value.length * COST.char, site);
    const serial = parseDateText(value);
    if (serial === undefined) {
      valueError(
        site,
        FormulaErrorCode.TypeMismatch,
        `${what} is not a date: ${describeValue(value)}`,
      );
    }
    return serial;
  }
  if (typeof value !== 'number') {
    return valueError(
      site,
      FormulaErrorCode.TypeMismatch,
      `${what} must be a date, got ${describeValue(value)}`,
    );
  }
  const serial = toNumber(value, site, what) as number;
  if (serial < 0) valueError(site, FormulaErrorCode.NumberOutOfRange, `${what} is a negative date`);
  return serial;
}
