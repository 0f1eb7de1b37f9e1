import { numberToText, parseNumericText, toNumber, toText } from '../coerce.ts';
import type { Site } from '../site.ts';
import { type FormulaValue, isCurrency } from '../values.ts';
import { COST, spend } from '../work-meter.ts';
import { partsFromSerial, toSerial } from './excel-date.ts';

const MONTH_NAMES = [
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
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Splits a format into sections at `;` outside quotes. */
function sections(format: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of format) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

function isDateFormat(format: string): boolean {
  const bare = format.replace(/"[^"]*"|\\./g, '');
  return /[yd]/i.test(bare) || (/[hms]/i.test(bare) && !/[0#]/.test(bare));
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatDate(serial: number, format: string): string {
  const { year, month, day } = partsFromSerial(serial);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const seconds = Math.round((serial - Math.floor(serial)) * 86400);
  const hours = Math.floor(seconds / 3600) % 24;
  const minutes = Math.floor(seconds / 60) % 60;
  const secs = seconds % 60;
  const tokens =
    format.match(/"[^"]*"|\\.|yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|./gi) ?? [];
  let out = '';
  let afterHour = false;
  tokens.forEach((token, index) => {
    const lower = token.toLowerCase();
    const nextIsSeconds =
      /^s/i.test(tokens[index + 1] ?? '') || /^s/i.test(tokens[index + 2] ?? '');
    switch (lower) {
      case 'yyyy':
        out += pad(year, 4);
        break;
      case 'yy':
        out += pad(year % 100, 2);
        break;
      case 'mmmm':
        out += MONTH_NAMES[month - 1];
        break;
      case 'mmm':
        out += MONTH_NAMES[month - 1]?.slice(0, 3);
        break;
      case 'mm':
      case 'm': {
        const minute = afterHour || nextIsSeconds;
        const n = minute ? minutes : month;
        out += lower === 'mm' ? pad(n, 2) : String(n);
        afterHour = false;
        break;
      }
      case 'dddd':
        out += DAY_NAMES[weekday];
        break;
      case 'ddd':
        out += DAY_NAMES[weekday]?.slice(0, 3);
        break;
      case 'dd':
        out += pad(day, 2);
        break;
      case 'd':
        out += String(day);
        break;
      case 'hh':
      case 'h':
        out += lower === 'hh' ? pad(hours, 2) : String(hours);
        afterHour = true;
        break;
      case 'ss':
      case 's':
        out += lower === 'ss' ? pad(secs, 2) : String(secs);
        break;
      default:
        out += token.startsWith('"')
          ? token.slice(1, -1)
          : token.startsWith('\\')
            ? token.slice(1)
            : token;
    }
  });
  return out;
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatNumber(value: number, section: string, signed: boolean): string {
  const literal = (s: string): string => s.replace(/"([^"]*)"|\\(.)/g, '$1$2');
  const first = section.search(/[0#.]/);
  if (first === -1) return literal(section);
  let last = first;
  for (let i = first; i < section.length; i++) if (/[0#.,]/.test(section[i] as string)) last = i;
  const prefix = literal(section.slice(0, first));
  const suffix = literal(section.slice(last + 1));
  const core = section.slice(first, last + 1);
  const percent = section.replace(/"[^"]*"/g, '').includes('%');
  const [intPattern = '', fracPattern = ''] = core.split('.');
  const decimals = (fracPattern.match(/[0#]/g) ?? []).length;
  const minDecimals = (fracPattern.match(/0/g) ?? []).length;
  const minInt = (intPattern.match(/0/g) ?? []).length;
  const scaled = Math.abs(percent ? value * 100 : value);
  const snapped = Number(scaled.toPrecision(15));
  const factor = 10 ** decimals;
  const rounded = Math.round(snapped * factor) / factor;
  let [intPart = '0', fracPart = ''] = rounded.toFixed(decimals).split('.');
  while (fracPart.length > minDecimals && fracPart.endsWith('0')) fracPart = fracPart.slice(0, -1);
  if (intPart === '0' && minInt === 0) intPart = '';
  intPart = intPart.padStart(minInt, '0');
  if (intPattern.includes(',')) intPart = group(intPart);
  const body = fracPart.length > 0 ? `${intPart}.${fracPart}` : intPart;
  // Excel keeps the sign of a negative number that rounds to zero: TEXT(-0.001, "0.00") is "-0.00".
  const negative = signed && value < 0;
  return `${negative ? '-' : ''}${prefix}${body}${suffix}`;
}

/** Excel's TEXT(value, format) for the common number and date formats. */
export function formatText(value: FormulaValue, format: string, site: Site): string {
  spend(COST.format + format.length * COST.char, site);
  if (format === '' || /^general$/i.test(format) || format === '@') {
    return toText(value, site, 'the value') ?? '';
  }
  const parts = sections(format);
  if (isDateFormat(parts[0] as string)) {
    return formatDate(toSerial(value, site, 'the value'), parts[0] as string);
  }
  // Text that is not a number passes through, as in Excel: TEXT("abc", "0.00") is "abc".
  if (typeof value === 'string' && parseNumericText(value) === undefined) return value;
  const n = isCurrency(value) ? value.amount : (toNumber(value, site, 'the value') ?? 0);
  if (n < 0 && parts.length >= 2) return formatNumber(-n, parts[1] as string, false);
  if (n === 0 && parts.length >= 3) return formatNumber(0, parts[2] as string, false);
  const result = formatNumber(n, parts[0] as string, true);
  return result === '' && n !== 0 ? numberToText(n) : result;
}
