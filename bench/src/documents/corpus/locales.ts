/**
 * Number, currency and date conventions of the places documents come from. A document uses one
 * locale throughout (as real ones do); the ground truth keeps numbers and ISO dates.
 */

export type DateStyle =
  | 'mdy-slash' // 03/14/2024
  | 'dmy-slash' // 14/03/2024
  | 'dmy-dot' // 14.03.2024
  | 'dmy-dash' // 14-03-2024
  | 'iso' // 2024-03-14
  | 'month-d-y' // March 14, 2024
  | 'mon-d-y' // Mar 14, 2024
  | 'd-month-y' // 14 March 2024
  | 'd-mon-y'; // 14-Mar-2024

export type MoneyStyle = 'symbol' | 'code' | 'plain';

export interface Locale {
  readonly id: string;
  readonly currency: string;
  readonly symbol: string;
  /** "12,50 €" rather than "€12.50". */
  readonly symbolAfter: boolean;
  readonly decimal: '.' | ',';
  readonly group: string;
  /** Indian grouping: 12,34,567.00. */
  readonly lakh?: boolean;
  readonly dateStyles: readonly DateStyle[];
}

export const LOCALES: Readonly<Record<string, Locale>> = {
  'en-US': {
    id: 'en-US',
    currency: 'USD',
    symbol: '$',
    symbolAfter: false,
    decimal: '.',
    group: ',',
    dateStyles: ['mdy-slash', 'month-d-y', 'mon-d-y', 'iso'],
  },
  'en-GB': {
    id: 'en-GB',
    currency: 'GBP',
    symbol: '£',
    symbolAfter: false,
    decimal: '.',
    group: ',',
    dateStyles: ['dmy-slash', 'd-month-y', 'd-mon-y'],
  },
  'de-DE': {
    id: 'de-DE',
    currency: 'EUR',
    symbol: '€',
    symbolAfter: true,
    decimal: ',',
    group: '.',
    dateStyles: ['dmy-dot', 'iso', 'd-month-y'],
  },
  'fr-FR': {
    id: 'fr-FR',
    currency: 'EUR',
    symbol: '€',
    symbolAfter: true,
    decimal: ',',
    group: ' ',
    dateStyles: ['dmy-slash', 'd-month-y', 'iso'],
  },
  'de-CH': {
    id: 'de-CH',
    currency: 'CHF',
    symbol: 'CHF',
    symbolAfter: false,
    decimal: '.',
    group: "'",
    dateStyles: ['dmy-dot', 'd-mon-y'],
  },
  'en-IN': {
    id: 'en-IN',
    currency: 'INR',
    symbol: '₹',
    symbolAfter: false,
    decimal: '.',
    group: ',',
    lakh: true,
    dateStyles: ['dmy-dash', 'd-mon-y', 'dmy-slash'],
  },
  'en-CA': {
    id: 'en-CA',
    currency: 'CAD',
    symbol: 'CA$',
    symbolAfter: false,
    decimal: '.',
    group: ',',
    dateStyles: ['iso', 'month-d-y', 'mon-d-y'],
  },
};

/** Month names, January first. */
export const MONTHS = [
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

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date (`yyyy-mm-dd`) written in `style`. */
export function formatDate(iso: string, style: DateStyle): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = MONTHS[m - 1] ?? '';
  switch (style) {
    case 'mdy-slash':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'dmy-slash':
      return `${pad(d)}/${pad(m)}/${y}`;
    case 'dmy-dot':
      return `${pad(d)}.${pad(m)}.${y}`;
    case 'dmy-dash':
      return `${pad(d)}-${pad(m)}-${y}`;
    case 'iso':
      return iso;
    case 'month-d-y':
      return `${month} ${d}, ${y}`;
    case 'mon-d-y':
      return `${month.slice(0, 3)} ${d}, ${y}`;
    case 'd-month-y':
      return `${d} ${month} ${y}`;
    case 'd-mon-y':
      return `${pad(d)}-${month.slice(0, 3)}-${y}`;
  }
}

/** The ISO date `days` after `iso`. */
export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function group(digits: string, locale: Locale): string {
  if (locale.lakh && digits.length > 3) {
    const last = digits.slice(-3);
    const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, locale.group);
    return `${rest}${locale.group}${last}`;
  }
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, locale.group);
}

/** A number with two decimals in the locale's separators, no currency. */
export function formatNumber(value: number, locale: Locale, decimals = 2): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole, fraction] = fixed.split('.') as [string, string | undefined];
  const text = group(whole, locale) + (fraction ? `${locale.decimal}${fraction}` : '');
  return value < 0 ? `-${text}` : text;
}

/** An amount as the locale writes it, with symbol, code or nothing. */
export function formatMoney(
  value: number,
  locale: Locale,
  style: MoneyStyle,
  negative: 'minus' | 'parens' = 'minus',
): string {
  const body = formatNumber(Math.abs(value), locale);
  let text: string;
  if (style === 'plain') text = body;
  else if (style === 'code')
    text = locale.symbolAfter ? `${body} ${locale.currency}` : `${locale.currency} ${body}`;
  else if (locale.symbolAfter) text = `${body} ${locale.symbol}`;
  else text = locale.symbol.length > 1 ? `${locale.symbol} ${body}` : `${locale.symbol}${body}`;
  if (value >= 0) return text;
  return negative === 'parens' ? `(${text})` : `-${text}`;
}

/** Rounds to cents. */
export const cents = (n: number) => Math.round(n * 100) / 100;
