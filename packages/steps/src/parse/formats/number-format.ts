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

/** Excel's serial date epoch (1899-12-30, which absorbs the 1900 leap-year bug). */
const EPOCH = Date.UTC(1899, 11, 30);

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

function isDateFormat(section: string): boolean {
  return /[ymdhs]/i.test(bare(section)) && !/[0#?]/.test(bare(section).replace(/s+\.0+/gi, ''));
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
        | 'ampm'
        | 'ap';
    };

/**
 * Tokenizes a date section once. Whether an `m` means minutes depends only on its neighbours
 * (after an hour, or before seconds), so it is decided here rather than for every cell.
 */
function compileDate(section: string): { parts: DatePart[]; amPm: boolean } {
  const amPm = /AM\/PM|A\/P/i.test(section);
  const tokens =
    section.match(/"[^"]*"|\\.|\[[^\]]*\]|AM\/PM|A\/P|y+|m+|d+|h+|s+(\.0+)?|./gi) ?? [];
  const parts: DatePart[] = [];
  const literal = (text: string) => {
    const last = parts[parts.length - 1];
    // Adjacent literals are merged: fewer steps per cell.
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
      const next = tokens.slice(index + 1).find((t) => /[a-z]/i.test(t));
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
    } else if (/^s+/.test(lower)) parts.push({ kind: 'second' });
    else if (lower === 'am/pm') parts.push({ kind: 'ampm' });
    else if (lower === 'a/p') parts.push({ kind: 'ap' });
    else literal(token);
    if (/[a-z]/i.test(token)) lastWasHour = false;
  });
  return { parts, amPm };
}

function formatDate(date: Date, parts: readonly DatePart[], amPm: boolean): string {
  let out = '';
  for (const part of parts) {
    switch (part.kind) {
      case 'literal':
        out += part.text;
        break;
      case 'yy':
        out += pad(date.getUTCFullYear() % 100, 2);
        break;
      case 'yyyy':
        out += String(date.getUTCFullYear());
        break;
      case 'm':
        out += String(date.getUTCMonth() + 1);
        break;
      case 'mm':
        out += pad(date.getUTCMonth() + 1, 2);
        break;
      case 'mmm':
        out += (MONTHS[date.getUTCMonth()] ?? '').slice(0, 3);
        break;
      case 'mmmm':
        out += MONTHS[date.getUTCMonth()] ?? '';
        break;
      case 'minute':
        out += String(date.getUTCMinutes());
        break;
      case 'minute2':
        out += pad(date.getUTCMinutes(), 2);
        break;
      case 'd':
        out += String(date.getUTCDate());
        break;
      case 'dd':
        out += pad(date.getUTCDate(), 2);
        break;
      case 'ddd':
        out += (DAYS[date.getUTCDay()] ?? '').slice(0, 3);
        break;
      case 'dddd':
        out += DAYS[date.getUTCDay()] ?? '';
        break;
      case 'hour':
      case 'hour2': {
        let hours = date.getUTCHours();
        if (amPm) hours = hours % 12 === 0 ? 12 : hours % 12;
        out += part.kind === 'hour2' ? pad(hours, 2) : String(hours);
        break;
      }
      case 'second':
        out += pad(date.getUTCSeconds(), 2);
        break;
      case 'ampm':
        out += date.getUTCHours() < 12 ? 'AM' : 'PM';
        break;
      case 'ap':
        out += date.getUTCHours() < 12 ? 'A' : 'P';
        break;
    }
  }
  return out;
}

function groupThousands(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Compiles a numeric section: everything but the digits (decimals, grouping, percent, the
 * literal text around the digits) is fixed by the format, so it is worked out once.
 */
function compileNumberSection(section: string): (value: number) => string {
  const core = bare(section);
  const percent = core.includes('%');
  const decimalsMatch = core.match(/\.([0#?]+)/);
  const decimals = decimalsMatch?.[1]?.length ?? 0;
  const thousands = /[0#?],[0#?]/.test(core);
  const scientific = /E[+-]/i.test(core);
  const showZeroInteger = /0[.,%]|0$/.test(core.replace(/\.[0#?]+/, ''));
  // Literal text around the digits: quoted strings, escaped characters, currency brackets.
  // Positions of the digit placeholders, ignoring those inside literals and brackets.
  const masked = section.replace(/"[^"]*"|\[[^\]]*\]|\\./g, (m) => '\u0001'.repeat(m.length));
  const first = masked.search(/[0#?]/);
  const lastDigit = Math.max(
    masked.lastIndexOf('0'),
    masked.lastIndexOf('#'),
    masked.lastIndexOf('?'),
  );
  const literal = (part: string) =>
    part
      .replace(/\[\$([^\]-]*)(-[^\]]*)?\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '')
      .replace(/"([^"]*)"/g, '$1')
      .replace(/\\(.)/g, '$1')
      .replace(/_./g, ' ')
      .replace(/\*./g, '')
      .replace(/[,]/g, '');
  const prefix = first < 0 ? '' : literal(section.slice(0, first));
  const suffix =
    lastDigit < 0 ? '' : literal(section.slice(lastDigit + 1).replace(/^[0#?.,]+/, ''));
  return (value) => {
    const scaled = percent ? value * 100 : value;
    let number: string;
    if (scientific)
      number = Math.abs(scaled)
        .toExponential(decimals)
        .toUpperCase()
        .replace(/E\+?(-?)(\d)$/, 'E+$10$2');
    else {
      const fixed = Math.abs(scaled).toFixed(decimals);
      const dot = fixed.indexOf('.');
      const integer = dot < 0 ? fixed : fixed.slice(0, dot);
      const shownInteger = showZeroInteger || integer !== '0' ? integer : '';
      const grouped = thousands ? groupThousands(shownInteger) : shownInteger;
      number = dot < 0 || dot === fixed.length - 1 ? grouped : `${grouped}${fixed.slice(dot)}`;
    }
    return `${prefix}${number}${suffix}`.trim();
  };
}

/** Formats a number like Excel's "General": at most 11 characters, no trailing zeros. */
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

/** The literal text of a format section without digit placeholders (`"zero"`, `"n/a"`). */
function literalText(section: string): string {
  return section
    .replace(/\[[^\]]*\]/g, '')
    .replace(/"([^"]*)"/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/_./g, ' ')
    .replace(/\*./g, '')
    .trim();
}

/** Formats one section; `sign` is the `-` of a negative value shown by a positive section. */
type SectionFormatter = (numeric: number, date: Date | undefined, sign: string) => string;

function compileSection(section: string): SectionFormatter {
  if (/^general$/i.test(section.trim())) {
    return (numeric, date) => (date ? date.toISOString().slice(0, 10) : formatGeneral(numeric));
  }
  const digits = /[0#?]/.test(bare(section));
  if (section.includes('@') && !digits) return (numeric) => formatGeneral(numeric);
  if (isDateFormat(section)) {
    const { parts, amPm } = compileDate(section);
    return (numeric, date) =>
      formatDate(date ?? new Date(EPOCH + Math.round(numeric * 86_400_000)), parts, amPm);
  }
  if (!digits) {
    const literal = literalText(section);
    return literal === '' ? (numeric) => formatGeneral(numeric) : () => literal;
  }
  const number = compileNumberSection(section);
  return (numeric, _date, sign) => `${sign}${number(numeric)}`;
}

/** Formats a value (a number, or a date as its serial number) under one number format. */
export type NumberFormatter = (value: number | Date) => string;

function compile(format: string): NumberFormatter {
  if (format === 'General') {
    return (value) =>
      typeof value === 'number' ? formatGeneral(value) : value.toISOString().slice(0, 10);
  }
  const [first = compileSection('General'), ...rest] = sections(format).map(compileSection);
  const negative = rest[0];
  const zero = rest[1];
  return (value) => {
    const date = value instanceof Date ? value : undefined;
    const numeric = date ? (date.getTime() - EPOCH) / 86_400_000 : (value as number);
    if (numeric < 0) return negative ? negative(numeric, date, '') : first(numeric, date, '-');
    if (numeric === 0 && zero) return zero(numeric, date, '');
    return first(numeric, date, '');
  };
}

/** Compiled formatters per format string: a sheet uses few formats for many cells. */
const compiled = new Map<string, NumberFormatter>();

/**
 * The formatter of a number format, compiled once per format string and cached: parsing a
 * format costs far more than applying it, and a large sheet applies a handful of formats to
 * hundreds of thousands of cells.
 *
 * @example
 * const money = compileNumberFormat('"$"#,##0.00');
 * money(1234.5); // "$1,234.50"
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
 * The text Excel displays for a value under a number format: decimals, thousands separators,
 * percentages, currency symbols and literal text, negative sections, dates and times. Unknown
 * constructs fall back to "General".
 *
 * @example
 * formatCellValue(1234.5, '"$"#,##0.00'); // "$1,234.50"
 */
export function formatCellValue(value: number | Date, format: string | undefined): string {
  return compileNumberFormat(format)(value);
}
