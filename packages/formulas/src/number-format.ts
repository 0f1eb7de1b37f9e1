import { partsFromSerial } from './functions/excel-date.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Excel's serial date epoch (1899-12-30): a date's serial is its day count from it. */
const EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

function pad(value: number, length: number): string {
  return String(value).padStart(length, '0');
}

/** Splits a format into sections by `;` outside quotes and brackets. */
function sections(format: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let bracket = false;
  for (const ch of format) {
    if (ch === '"' && !bracket) quoted = !quoted;
    else if (ch === '[' && !quoted) bracket = true;
    else if (ch === ']' && !quoted) bracket = false;
    if (ch === ';' && !quoted && !bracket) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** The format without quoted literals, escapes and bracketed parts, for token tests. */
function bare(section: string): string {
  return section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
}

/** A date or time section: date/time letters and no digit placeholders (`ss.00` aside). */
function isDateSection(section: string): boolean {
  const core = bare(section);
  return /[ymdhs]/i.test(core) && !/[0#?]/.test(core.replace(/s+\.0+/gi, ''));
}

/** A calendar date and time of day, as a date format reads it. */
interface DateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

/** The date and time of a serial number (Excel's 1900 system, 1900-02-29 at 60), to the second. */
function dateTimeOfSerial(serial: number): DateTime {
  const total = Math.round(serial * 86_400);
  const whole = Math.floor(total / 86_400);
  const secondOfDay = total - whole * 86_400;
  const { year, month, day } = partsFromSerial(whole);
  return {
    year,
    month,
    day,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    hours: Math.floor(secondOfDay / 3600),
    minutes: Math.floor(secondOfDay / 60) % 60,
    seconds: secondOfDay % 60,
  };
}

function dateTimeOfDate(date: Date): DateTime {
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
    hours: date.getUTCHours(),
    minutes: date.getUTCMinutes(),
    seconds: date.getUTCSeconds(),
  };
}

/** One step of a compiled date format; the kind is fixed when the format is compiled. */
type DatePart =
  | { readonly kind: 'literal'; readonly text: string }
  | {
      readonly kind:
        | 'yy'
        | 'yyyy'
        | 'm'
        | 'mm'
        | 'mmm'
        | 'mmmm'
        | 'minute'
        | 'minute2'
        | 'd'
        | 'dd'
        | 'ddd'
        | 'dddd'
        | 'hour'
        | 'hour2'
        | 'second'
        | 'second2'
        | 'ampm'
        | 'ap';
    };

/**
 * Tokenizes a date section once. Whether an `m` means minutes depends only on its neighbours
 * (after an hour, or before seconds), so it is decided here rather than for every value.
 */
function compileDate(section: string): { parts: DatePart[]; amPm: boolean } {
  const amPm = /AM\/PM|A\/P/i.test(section);
  const tokens =
    section.match(/"[^"]*"|\\.|\[[^\]]*\]|AM\/PM|A\/P|y+|m+|d+|h+|s+(\.0+)?|./gi) ?? [];
  const parts: DatePart[] = [];
  const literal = (text: string) => {
    const last = parts[parts.length - 1];
    // Adjacent literals are merged: fewer steps per value.
    if (last?.kind === 'literal')
      parts[parts.length - 1] = { kind: 'literal', text: last.text + text };
    else parts.push({ kind: 'literal', text });
  };
  let lastWasHour = false;
  tokens.forEach((token, index) => {
    const lower = token.toLowerCase();
    if (token.startsWith('"')) {
      literal(token.slice(1, -1));
      return;
    }
    if (token.startsWith('\\')) {
      literal(token.slice(1));
      return;
    }
    if (token.startsWith('[')) return;
    if (/^y+$/.test(lower)) parts.push({ kind: lower.length <= 2 ? 'yy' : 'yyyy' });
    else if (/^m+$/.test(lower)) {
      // "m" after an hour or before seconds is minutes.
      const next = tokens.slice(index + 1).find((t) => /[a-z]/i.test(t) && !t.startsWith('"'));
      const minutes = lastWasHour || (next !== undefined && /^s/i.test(next));
      if (minutes) parts.push({ kind: lower.length >= 2 ? 'minute2' : 'minute' });
      else if (lower.length === 1) parts.push({ kind: 'm' });
      else if (lower.length === 2) parts.push({ kind: 'mm' });
      else if (lower.length === 3) parts.push({ kind: 'mmm' });
      else parts.push({ kind: 'mmmm' });
    } else if (/^d+$/.test(lower)) {
      if (lower.length === 1) parts.push({ kind: 'd' });
      else if (lower.length === 2) parts.push({ kind: 'dd' });
      else if (lower.length === 3) parts.push({ kind: 'ddd' });
      else parts.push({ kind: 'dddd' });
    } else if (/^h+$/.test(lower)) {
      parts.push({ kind: lower.length >= 2 ? 'hour2' : 'hour' });
      lastWasHour = true;
      return;
    } else if (/^s+/.test(lower)) parts.push({ kind: /^ss/.test(lower) ? 'second2' : 'second' });
    else if (lower === 'am/pm') parts.push({ kind: 'ampm' });
    else if (lower === 'a/p') parts.push({ kind: 'ap' });
    else literal(token);
    if (/[a-z]/i.test(token)) lastWasHour = false;
  });
  return { parts, amPm };
}

function formatDate(at: DateTime, parts: readonly DatePart[], amPm: boolean): string {
  let out = '';
  for (const part of parts) {
    switch (part.kind) {
      case 'literal':
        out += part.text;
        break;
      case 'yy':
        out += pad(at.year % 100, 2);
        break;
      case 'yyyy':
        out += pad(at.year, 4);
        break;
      case 'm':
        out += String(at.month);
        break;
      case 'mm':
        out += pad(at.month, 2);
        break;
      case 'mmm':
        out += (MONTHS[at.month - 1] ?? '').slice(0, 3);
        break;
      case 'mmmm':
        out += MONTHS[at.month - 1] ?? '';
        break;
      case 'minute':
        out += String(at.minutes);
        break;
      case 'minute2':
        out += pad(at.minutes, 2);
        break;
      case 'd':
        out += String(at.day);
        break;
      case 'dd':
        out += pad(at.day, 2);
        break;
      case 'ddd':
        out += (DAYS[at.weekday] ?? '').slice(0, 3);
        break;
      case 'dddd':
        out += DAYS[at.weekday] ?? '';
        break;
      case 'hour':
      case 'hour2': {
        const hours = amPm ? (at.hours % 12 === 0 ? 12 : at.hours % 12) : at.hours;
        out += part.kind === 'hour2' ? pad(hours, 2) : String(hours);
        break;
      }
      case 'second':
        out += String(at.seconds);
        break;
      case 'second2':
        out += pad(at.seconds, 2);
        break;
      case 'ampm':
        out += at.hours < 12 ? 'AM' : 'PM';
        break;
      case 'ap':
        out += at.hours < 12 ? 'A' : 'P';
        break;
    }
  }
  return out;
}

function groupThousands(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Literal text of a format part: quoted text and escapes as written, the symbol of a
 * `[$€-407]` currency, `_x` as a space; colour and condition brackets, `*x` fills and unquoted
 * commas (grouping or scaling marks) leave nothing.
 */
function literal(part: string): string {
  return part.replace(
    /"([^"]*)"|\\(.)|\[\$([^\]-]*)(?:-[^\]]*)?\]|\[[^\]]*\]|(_.)|\*.|,/g,
    (_match, quoted?: string, escaped?: string, currency?: string, space?: string) =>
      quoted ?? escaped ?? currency ?? (space ? ' ' : ''),
  );
}

/**
 * Compiles a numeric section: everything but the digits (decimals, optional `#` decimals, minimum
 * integer digits, grouping, percent, scientific notation, the literal text around the digits) is
 * fixed by the format, so it is worked out once. The value is rounded as Excel does: its decimal
 * value to 15 significant digits first, then half away from zero. `signed`: a negative value
 * keeps its `-` (even one that rounds to zero, as Excel shows `-0.00`).
 */
function compileNumberSection(section: string): (value: number, signed: boolean) => string {
  const core = bare(section);
  const percent = core.includes('%');
  const scientific = /E[+-]/i.test(core);
  // Digit placeholders, ignoring those inside literals and brackets.
  const masked = section.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, (m) =>
    '\u0001'.repeat(m.length),
  );
  let first = masked.search(/[0#?]/);
  if (first > 0 && masked[first - 1] === '.') first--;
  const last = Math.max(masked.lastIndexOf('0'), masked.lastIndexOf('#'), masked.lastIndexOf('?'));
  const digitsPart = masked.slice(first, last + 1).replace(/E[+-][0#?]*/i, '');
  const [intPattern = '', fracPattern = ''] = digitsPart.split('.');
  const point = digitsPart.includes('.');
  const decimals = (fracPattern.match(/[0#?]/g) ?? []).length;
  const minDecimals = (fracPattern.match(/0/g) ?? []).length;
  const minInt = (intPattern.match(/0/g) ?? []).length;
  const thousands = /[0#?],[0#?]/.test(intPattern);
  const prefix = literal(section.slice(0, first));
  // The exponent's placeholders belong to the number; what follows them is literal text.
  const suffix = literal(section.slice(last + 1));
  return (value, signed) => {
    const scaled = Math.abs(percent ? value * 100 : value);
    let body: string;
    if (scientific) {
      body = scaled
        .toExponential(decimals)
        .toUpperCase()
        .replace(/E\+?(-?)(\d)$/, 'E+$10$2')
        .replace('E+-', 'E-');
    } else {
      const snapped = Number(scaled.toPrecision(15));
      const factor = 10 ** decimals;
      const rounded = Math.round(snapped * factor) / factor;
      let [intPart = '0', fracPart = ''] = rounded.toFixed(decimals).split('.');
      while (fracPart.length > minDecimals && fracPart.endsWith('0')) {
        fracPart = fracPart.slice(0, -1);
      }
      if (intPart === '0' && minInt === 0) intPart = '';
      intPart = intPart.padStart(minInt, '0');
      if (thousands) intPart = groupThousands(intPart);
      // Excel keeps the point of a format with decimals even when none is shown (`#.##`: "2.").
      body = point ? `${intPart}.${fracPart}` : intPart;
    }
    const negative = signed && value < 0;
    return `${negative ? '-' : ''}${prefix}${body}${suffix}`.trim();
  };
}

/**
 * Formats a number like Excel's "General": at most 11 characters, no trailing zeros.
 *
 * @example
 * formatGeneral(2 / 3); // "0.666666667"
 */
export function formatGeneral(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e11) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e11 || (magnitude < 1e-9 && value !== 0)) {
    return value
      .toExponential(5)
      .toUpperCase()
      .replace(/\.?0+E/, 'E');
  }
  const sign = value < 0 ? '-' : '';
  // When the shortest round-trip text fits, rounding to 11 digits gives it back: skip the loop.
  const shortest = String(magnitude);
  if (shortest.length <= 11) return `${sign}${shortest}`;
  for (let precision = 11; precision >= 1; precision--) {
    const text = String(Number(magnitude.toPrecision(precision)));
    if (text.length <= 11) return `${sign}${text}`;
  }
  return `${sign}${magnitude}`;
}

/** Formats one section; `signed`: a negative value shown by this section keeps its `-`. */
type SectionFormatter = (numeric: number, date: Date | undefined, signed: boolean) => string;

function compileSection(section: string): SectionFormatter {
  if (/^general$/i.test(section.trim())) {
    return (numeric, date) => (date ? date.toISOString().slice(0, 10) : formatGeneral(numeric));
  }
  const digits = /[0#?]/.test(bare(section));
  if (section.includes('@') && !digits) return (numeric) => formatGeneral(numeric);
  if (isDateSection(section)) {
    const { parts, amPm } = compileDate(section);
    return (numeric, date) =>
      formatDate(date ? dateTimeOfDate(date) : dateTimeOfSerial(numeric), parts, amPm);
  }
  if (!digits) {
    const text = literal(section).trim();
    return text === '' ? (numeric) => formatGeneral(numeric) : () => text;
  }
  const number = compileNumberSection(section);
  return (numeric, _date, signed) => number(numeric, signed);
}

/** Formats a value (a number, or a date: shown as its serial number would be) under one format. */
export type NumberFormatter = (value: number | Date) => string;

function compile(format: string): NumberFormatter {
  if (/^general$/i.test(format)) {
    return (value) =>
      typeof value === 'number' ? formatGeneral(value) : value.toISOString().slice(0, 10);
  }
  const [first = compileSection('General'), ...rest] = sections(format).map(compileSection);
  const negative = rest[0];
  const zero = rest[1];
  return (value) => {
    const date = value instanceof Date ? value : undefined;
    const numeric = date ? (date.getTime() - EPOCH) / DAY_MS : (value as number);
    if (numeric < 0) return negative ? negative(-numeric, date, false) : first(numeric, date, true);
    if (numeric === 0 && zero) return zero(numeric, date, false);
    return first(numeric, date, true);
  };
}

/** Compiled formatters per format string: a sheet uses few formats for many cells. */
const compiled = new Map<string, NumberFormatter>();

/**
 * The formatter of an Excel number format (what a cell displays, and what TEXT returns),
 * compiled once per format string and cached: parsing a format costs far more than applying it,
 * and a large sheet applies a handful of formats to hundreds of thousands of cells. Supported:
 * decimals (`0.00`, optional `#` decimals), minimum digits (`000`), thousands separators,
 * percent, scientific (`0.00E+00`), literal text (quoted, escaped, `[$€-407]` currencies, `_x`
 * spacing), sections for negative and zero values, colour and condition brackets (ignored),
 * dates and times (`yyyy mmmm dddd d h:mm:ss AM/PM`, `m` as minutes after an hour or before
 * seconds). Unknown constructs fall back to "General".
 *
 * @example
 * const money = compileNumberFormat('"$"#,##0.00;("$"#,##0.00)');
 * money(1234.5); // "$1,234.50"
 * money(-2); // "($2.00)"
 */
export function compileNumberFormat(format: string | undefined): NumberFormatter {
  const key = format === undefined || format === '' ? 'General' : format;
  let formatter = compiled.get(key);
  if (!formatter) {
    formatter = compile(key);
    // Bounded: a hostile workbook may declare a distinct format for every cell.
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(key, formatter);
  }
  return formatter;
}

/**
 * The text Excel displays for a value under a number format (see {@link compileNumberFormat}).
 *
 * @example
 * formatCellValue(1234.5, '"$"#,##0.00'); // "$1,234.50"
 * formatCellValue(45306, 'dd/mm/yyyy'); // "15/01/2024"
 */
export function formatCellValue(value: number | Date, format: string | undefined): string {
  return compileNumberFormat(format)(value);
}

/** True when a format's first section shows dates or times (TEXT then reads its value as a date). */
export function isDateFormat(format: string): boolean {
  return isDateSection(sections(format)[0] ?? '');
}
