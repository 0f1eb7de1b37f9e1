import { toNumber, toText } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';
import {
  parseDateText,
  partsFromSerial,
  serialFromDate,
  serialFromParts,
  toSerial,
} from './excel-date.ts';

function int(value: FormulaValue | undefined, site: Site, position: number): number {
  return Math.trunc(toNumber(value ?? null, site, `argument ${position}`) as number);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function datedif(start: number, end: number, unit: string, site: Site): number {
  const a = partsFromSerial(start);
  const b = partsFromSerial(end);
  switch (unit) {
    case 'D':
      return Math.floor(end) - Math.floor(start);
    case 'M':
      return (b.year - a.year) * 12 + b.month - a.month - (b.day < a.day ? 1 : 0);
    case 'Y':
      return (
        b.year - a.year - (b.month < a.month || (b.month === a.month && b.day < a.day) ? 1 : 0)
      );
    case 'YM':
      return (b.month - a.month - (b.day < a.day ? 1 : 0) + 12) % 12;
    case 'MD': {
      if (b.day >= a.day) return b.day - a.day;
      const previous = b.month === 1 ? { y: b.year - 1, m: 12 } : { y: b.year, m: b.month - 1 };
      return daysInMonth(previous.y, previous.m) - a.day + b.day;
    }
    case 'YD': {
      let anniversary = serialFromParts(b.year, a.month, a.day);
      if (anniversary > Math.floor(end)) anniversary = serialFromParts(b.year - 1, a.month, a.day);
      return Math.floor(end) - anniversary;
    }
    default:
      return valueError(
        site,
        FormulaErrorCode.InvalidArgument,
        `unit must be one of "Y", "M", "D", "MD", "YM", "YD", got ${JSON.stringify(unit)}`,
      );
  }
}

/** Built-in date functions. Dates are Excel serial numbers (1900 system), or text they read. */
export const dateFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'DATE',
    category: 'date',
    minArgs: 3,
    signature: 'DATE(year, month, day)',
    summary:
      'The serial number of a date; months and days overflow into the next year/month; years 0–1899 mean 1900–3799 (as in Excel).',
    examples: [
      { formula: 'DATE(2024, 1, 15)', result: 45306 },
      { formula: 'DATE(2024, 13, 1) = DATE(2025, 1, 1)', result: true },
    ],
    apply: ([y, m, d], site) => {
      let year = int(y, site, 1);
      if (year >= 0 && year < 1900) year += 1900;
      if (year < 0 || year > 9999)
        valueError(site, FormulaErrorCode.NumberOutOfRange, 'year must be 0 to 9999');
      const serial = serialFromParts(year, int(m, site, 2), int(d, site, 3));
      if (serial < 0 || serial > 2958465) {
        valueError(
          site,
          FormulaErrorCode.NumberOutOfRange,
          'the date is outside 1900-01-01 to 9999-12-31',
        );
      }
      return serial;
    },
  }),
  builtin({
    name: 'DATEVALUE',
    category: 'date',
    minArgs: 1,
    signature: 'DATEVALUE(text)',
    summary:
      'The serial number of a date written as text: `2024-01-15` (time ignored), `2024/01/15`, `1/15/2024`, `15 Jan 2024`, `Jan 15, 2024`.',
    examples: [{ formula: 'DATEVALUE("2024-01-15")', result: 45306 }],
    apply: ([value], site) => {
      const text = toText(value ?? null, site, 'argument 1') ?? '';
      const serial = parseDateText(text);
      if (serial === undefined) {
        valueError(site, FormulaErrorCode.TypeMismatch, `${JSON.stringify(text)} is not a date`);
      }
      return serial;
    },
  }),
  builtin({
    name: 'YEAR',
    category: 'date',
    minArgs: 1,
    signature: 'YEAR(date)',
    summary: 'The year of a date (serial number or date text).',
    examples: [{ formula: 'YEAR("2024-03-05")', result: 2024 }],
    apply: ([value], site) => partsFromSerial(toSerial(value ?? null, site, 'the date')).year,
  }),
  builtin({
    name: 'MONTH',
    category: 'date',
    minArgs: 1,
    signature: 'MONTH(date)',
    summary: 'The month (1–12) of a date.',
    examples: [{ formula: 'MONTH(DATE(2024, 3, 5))', result: 3 }],
    apply: ([value], site) => partsFromSerial(toSerial(value ?? null, site, 'the date')).month,
  }),
  builtin({
    name: 'DAY',
    category: 'date',
    minArgs: 1,
    signature: 'DAY(date)',
    summary: 'The day of the month (1–31) of a date.',
    examples: [{ formula: 'DAY("2024-03-05")', result: 5 }],
    apply: ([value], site) => partsFromSerial(toSerial(value ?? null, site, 'the date')).day,
  }),
  builtin({
    name: 'TODAY',
    category: 'date',
    minArgs: 0,
    broadcast: 'none',
    signature: 'TODAY()',
    summary: "Today's date (UTC) as a serial number, from the injectable clock `options.now`.",
    examples: [{ formula: 'TODAY() > DATE(2020, 1, 1)', result: true }],
    apply: (_args, _site, context) => serialFromDate(context.now()),
  }),
  builtin({
    name: 'DATEDIF',
    category: 'date',
    minArgs: 3,
    signature: 'DATEDIF(start, end, unit)',
    summary:
      'Whole years ("Y"), months ("M") or days ("D") between two dates, or "MD"/"YM"/"YD" remainders; start after end is a VALUE_ERROR.',
    examples: [
      { formula: 'DATEDIF("2020-05-10", "2024-03-05", "Y")', result: 3 },
      { formula: 'DATEDIF(DATE(2024, 1, 31), DATE(2024, 3, 1), "M")', result: 1 },
    ],
    apply: ([s, e, u], site) => {
      const start = toSerial(s ?? null, site, 'the start date');
      const end = toSerial(e ?? null, site, 'the end date');
      if (Math.floor(start) > Math.floor(end)) {
        valueError(site, FormulaErrorCode.NumberOutOfRange, 'the start date is after the end date');
      }
      return datedif(start, end, (toText(u ?? null, site, 'the unit') ?? '').toUpperCase(), site);
    },
  }),
  builtin({
    name: 'DAYS',
    category: 'date',
    minArgs: 2,
    signature: 'DAYS(end, start)',
    summary: 'The number of days from `start` to `end` (negative if `end` is earlier).',
    examples: [{ formula: 'DAYS("2024-03-01", "2024-02-01")', result: 29 }],
    apply: ([e, s], site) =>
      Math.floor(toSerial(e ?? null, site, 'the end date')) -
      Math.floor(toSerial(s ?? null, site, 'the start date')),
  }),
];
