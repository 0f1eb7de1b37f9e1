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

function formatDate(date: Date, section: string): string {
  const hasAmPm = /AM\/PM|A\/P/i.test(section);
  const tokens =
    section.match(/"[^"]*"|\\.|\[[^\]]*\]|AM\/PM|A\/P|y+|m+|d+|h+|s+(\.0+)?|./gi) ?? [];
  let out = '';
  let lastWasHour = false;
  tokens.forEach((token, index) => {
    const lower = token.toLowerCase();
    if (token.startsWith('"')) {
      out += token.slice(1, -1);
      return;
    }
    if (token.startsWith('\\')) {
      out += token.slice(1);
      return;
    }
    if (token.startsWith('[')) return;
    if (/^y+$/.test(lower))
      out +=
        lower.length <= 2 ? pad(date.getUTCFullYear() % 100, 2) : String(date.getUTCFullYear());
    else if (/^m+$/.test(lower)) {
      // "m" after an hour or before seconds is minutes.
      const next = tokens.slice(index + 1).find((t) => /[a-z]/i.test(t));
      const minutes = lastWasHour || (next !== undefined && /^s/i.test(next));
      if (minutes)
        out += lower.length >= 2 ? pad(date.getUTCMinutes(), 2) : String(date.getUTCMinutes());
      else if (lower.length === 1) out += String(date.getUTCMonth() + 1);
      else if (lower.length === 2) out += pad(date.getUTCMonth() + 1, 2);
      else if (lower.length === 3) out += (MONTHS[date.getUTCMonth()] ?? '').slice(0, 3);
      else out += MONTHS[date.getUTCMonth()] ?? '';
    } else if (/^d+$/.test(lower)) {
      if (lower.length === 1) out += String(date.getUTCDate());
      else if (lower.length === 2) out += pad(date.getUTCDate(), 2);
      else if (lower.length === 3) out += (DAYS[date.getUTCDay()] ?? '').slice(0, 3);
      else out += DAYS[date.getUTCDay()] ?? '';
    } else if (/^h+$/.test(lower)) {
      let hours = date.getUTCHours();
      if (hasAmPm) hours = hours % 12 === 0 ? 12 : hours % 12;
      out += lower.length >= 2 ? pad(hours, 2) : String(hours);
      lastWasHour = true;
      return;
    } else if (/^s+/.test(lower)) {
      out += pad(date.getUTCSeconds(), 2);
    } else if (lower === 'am/pm') out += date.getUTCHours() < 12 ? 'AM' : 'PM';
    else if (lower === 'a/p') out += date.getUTCHours() < 12 ? 'A' : 'P';
    else out += token;
    if (/[a-z]/i.test(token)) lastWasHour = false;
  });
  return out;
}

function groupThousands(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatNumberSection(value: number, section: string): string {
  const core = bare(section);
  const percent = core.includes('%');
  const scaled = percent ? value * 100 : value;
  const decimalsMatch = core.match(/\.([0#?]+)/);
  const decimals = decimalsMatch?.[1]?.length ?? 0;
  const thousands = /[0#?],[0#?]/.test(core);
  const scientific = /E[+-]/i.test(core);
  let number: string;
  if (scientific)
    number = Math.abs(scaled)
      .toExponential(decimals)
      .toUpperCase()
      .replace(/E\+?(-?)(\d)$/, 'E+$10$2');
  else {
    const fixed = Math.abs(scaled).toFixed(decimals);
    const [integer = '0', fraction] = fixed.split('.');
    const shownInteger =
      /0[.,%]|0$/.test(core.replace(/\.[0#?]+/, '')) || integer !== '0' ? integer : '';
    number = `${thousands ? groupThousands(shownInteger) : shownInteger}${fraction ? `.${fraction}` : ''}`;
  }
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
  return `${prefix}${number}${suffix}`.trim();
}

/** Parsed sections per format string: a sheet uses few formats for many cells. */
const sectionCache = new Map<string, string[]>();

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

/**
 * The text Excel displays for a value under a number format: decimals, thousands separators,
 * percentages, currency symbols and literal text, negative sections, dates and times. Unknown
 * constructs fall back to "General".
 *
 * @example
 * formatCellValue(1234.5, '"$"#,##0.00'); // "$1,234.50"
 */
export function formatCellValue(value: number | Date, format: string | undefined): string {
  const fmt = format === undefined || format === '' ? 'General' : format;
  if (fmt === 'General' && typeof value === 'number') return formatGeneral(value);
  let parts = sectionCache.get(fmt);
  if (!parts) {
    parts = sections(fmt);
    if (sectionCache.size > 1000) sectionCache.clear();
    sectionCache.set(fmt, parts);
  }
  const dateValue = value instanceof Date ? value : undefined;
  const numeric = dateValue ? (dateValue.getTime() - EPOCH) / 86_400_000 : (value as number);
  let section = parts[0] ?? 'General';
  let sign = '';
  if (numeric < 0) {
    if (parts.length >= 2 && parts[1] !== undefined) section = parts[1];
    else sign = '-';
  } else if (numeric === 0 && parts.length >= 3 && parts[2] !== undefined) section = parts[2];
  if (/^general$/i.test(section.trim())) {
    if (dateValue) return dateValue.toISOString().slice(0, 10);
    return formatGeneral(numeric);
  }
  if (section.includes('@') && !/[0#?]/.test(bare(section))) return formatGeneral(numeric);
  if (isDateFormat(section)) {
    const date = dateValue ?? new Date(EPOCH + Math.round(numeric * 86_400_000));
    return formatDate(date, section);
  }
  if (!/[0#?]/.test(bare(section))) {
    const literal = literalText(section);
    return literal === '' ? formatGeneral(numeric) : literal;
  }
  return `${sign}${formatNumberSection(numeric, section)}`;
}
