/**
 * Text to typed values: dates to `yyyy-mm-dd`, amounts to numbers (US and European separators,
 * parentheses for negatives), currency to `{ amount, iso_4217 }`, booleans and enum members.
 * Each returns `undefined` when the text does not hold a value of that type.
 */

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function iso(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function fullYear(y: string): number {
  const n = Number(y);
  return y.length <= 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
}

/**
 * The first date in `text` as `yyyy-mm-dd`. Numeric dates with dots are day first; with slashes
 * or dashes month first unless impossible, or unless `dayFirst` says the document writes them
 * day first (03/04/2024 is 3 April then).
 */
export function parseDate(text: string, dayFirst?: boolean): string | undefined {
  const t = text.trim();
  let m = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/.exec(t);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})\b/.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const year = fullYear(m[4] ?? '');
    // Dots mean day-first (European); slashes month-first unless the month would be > 12.
    if (m[2] === '.' || a > 12 || (dayFirst === true && b <= 12)) return iso(year, b, a);
    return iso(year, a, b) ?? iso(year, b, a);
  }
  // `June 7, 2024`, and `June 7,2024` (the space after the comma lost, as OCR often does).
  m = /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{4})\b/.exec(t);
  if (m) {
    const month = MONTHS[(m[1] ?? '').slice(0, 3).toLowerCase()];
    if (month) return iso(Number(m[3]), month, Number(m[2]));
  }
  // A two-digit year is no day of a date that follows ("1 Mar - 31 Mar 2024" is no 2031).
  m =
    /\b(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,9})\.?[\s-,]+(\d{4}|\d{2}(?![\s-]*[A-Za-z]))\b/.exec(
      t,
    );
  if (m) {
    const month = MONTHS[(m[2] ?? '').slice(0, 3).toLowerCase()];
    if (month) return iso(fullYear(m[3] ?? ''), month, Number(m[1]));
  }
  return undefined;
}

/**
 * A day and month written without their year, as statements list transactions within a period
 * (`14 Mar`, `Mar 14`, `14-Mar`, `14/03`, `03/14`, `14.03.`): the whole text, nothing else.
 * Numeric ones are day first when `dayFirst` says so (or the dot says so), month first otherwise
 * unless impossible.
 */
export function dayAndMonth(
  text: string,
  dayFirst?: boolean,
): { month: number; day: number } | undefined {
  const t = text.trim();
  // `14.03.` with its closing dot only: `12.05` is a price.
  const dotted = /^(\d{1,2})\.(\d{1,2})\.$/.exec(t);
  const digits = /^(\d{1,2})\/(\d{1,2})$/.exec(t) ?? dotted;
  if (digits) {
    const a = Number(digits[1]);
    const b = Number(digits[2]);
    const [day, month] = dotted || a > 12 || (dayFirst === true && b <= 12) ? [a, b] : [b, a];
    return iso(2000, month, day) ? { month, day } : undefined;
  }
  const dayThenMonth = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,9})\.?$/.exec(t);
  const monthThenDay = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?$/.exec(t);
  const [dayText, word] = dayThenMonth
    ? [dayThenMonth[1], dayThenMonth[2]]
    : [monthThenDay?.[2], monthThenDay?.[1]];
  const month = word === undefined ? undefined : monthNamed(word);
  const day = Number(dayText);
  return month && iso(2000, month, day) ? { month, day } : undefined;
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The month (1-12) a word names, whole or shortened to three letters or more (`Mar`, `Sept`). */
function monthNamed(word: string): number | undefined {
  const w = word.toLowerCase();
  const index = w.length >= 3 ? MONTH_NAMES.findIndex((name) => name.startsWith(w)) : -1;
  return index < 0 ? undefined : index + 1;
}

/** True when `text` holds a date, with or without its year (`2024-04-24`, `24 Apr`, `04/24`). */
export function isDateText(text: string): boolean {
  return parseDate(text) !== undefined || dayAndMonth(text) !== undefined;
}

/**
 * A date written without its year (see dayAndMonth) in the year that puts it nearest to `near`
 * (`yyyy-mm-dd`, a date the document writes in full): `28 Dec` near 2025-01-15 is 2024-12-28.
 */
export function dateNear(text: string, near: string, dayFirst?: boolean): string | undefined {
  const dm = dayAndMonth(text, dayFirst);
  const year = Number(near.slice(0, 4));
  if (!dm || !Number.isInteger(year)) return undefined;
  const at = Date.parse(`${near}T00:00:00Z`);
  let best: string | undefined;
  for (const y of [year - 1, year, year + 1]) {
    const d = iso(y, dm.month, dm.day);
    if (!d) continue;
    if (
      !best ||
      Math.abs(Date.parse(`${d}T00:00:00Z`) - at) < Math.abs(Date.parse(`${best}T00:00:00Z`) - at)
    )
      best = d;
  }
  return best;
}

const SYMBOLS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:CA|C)\$/, 'CAD'],
  [/\b(?:AU|A)\$/, 'AUD'],
  [/\bNZ\$/, 'NZD'],
  [/\bHK\$/, 'HKD'],
  [/\bS\$/, 'SGD'],
  [/\bR\$/, 'BRL'],
  [/\bMX\$/, 'MXN'],
  [/\bRs\.?(?=\s?\d)/, 'INR'],
  [/US\$|\$/, 'USD'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/¥/, 'JPY'],
  [/₹/, 'INR'],
  [/₩/, 'KRW'],
];

const CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'INR',
  'CNY',
  'HKD',
  'SGD',
  'MXN',
  'BRL',
  'ZAR',
  'KRW',
]);

/** The ISO 4217 code named in `text` by code or symbol. */
export function parseCurrencyCode(text: string): string | undefined {
  for (const m of text.toUpperCase().matchAll(/\b[A-Z]{3}\b/g)) if (CODES.has(m[0])) return m[0];
  for (const [pattern, code] of SYMBOLS) if (pattern.test(text)) return code;
  return undefined;
}

/** The first number in `text`: `1,234.56`, `1.234,56`, `1 234,56`, `(12.00)` and `-12` forms. */
export function parseNumber(text: string): number | undefined {
  const m =
    /(\(?)\s*([-−]?)\s*(?:[A-Z]{3}\s*|[$€£¥₹]\s*)?(\d[\d.,'’ \u00a0\u2009\u202f]*\d|\d)(\)?)/.exec(
      text,
    );
  if (!m) return undefined;
  let raw = m[3] ?? '';
  // A space groups thousands only before three digits ("1 234,56"); "122.29 17" is two numbers.
  const spaced = /[ \u00a0\u2009\u202f]/.exec(raw);
  if (spaced && !/^\d{1,3}([ \u00a0\u2009\u202f]\d{3})+([.,]\d+)?$/.test(raw))
    raw = raw.slice(0, spaced.index);
  let digits = raw.replace(/[ '’\u00a0\u2009\u202f]/g, '');
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  if (lastComma > lastDot) {
    // "1.234,56" or "12,5": comma is the decimal separator when 1 or 2 digits follow it.
    const decimals = digits.length - lastComma - 1;
    digits =
      decimals === 3 && lastDot < 0
        ? digits.replace(/,/g, '')
        : digits.replace(/\./g, '').replace(',', '.');
  } else {
    digits = digits.replace(/,/g, '');
    if ((digits.match(/\./g) ?? []).length > 1) digits = digits.replace(/\./g, '');
  }
  const value = Number(digits);
  if (!Number.isFinite(value)) return undefined;
  const negative =
    m[2] !== '' ||
    (m[1] === '(' && m[4] === ')') ||
    /\bCR\b|-\s*$/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 4));
  return negative ? -value : value;
}

/** A currency value; `defaultCode` applies when the text names none. */
export function parseCurrency(
  text: string,
  defaultCode: string | null,
): { amount: number; iso_4217: string | null } | undefined {
  const amount = parseNumber(text);
  if (amount === undefined) return undefined;
  return { amount, iso_4217: parseCurrencyCode(text) ?? defaultCode };
}

/** Yes/no style text as a boolean. */
export function parseBoolean(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (/^(yes|y|true|checked|x|☑|☒|✓|✔|on|paid|signed)$/.test(t)) return true;
  if (/^(no|n|false|unchecked|☐|off|unpaid|not signed|none)$/.test(t)) return false;
  return undefined;
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/[^\p{L}\p{N} ]+/gu, '')
    .trim();
}

/** Words that stand for a common enum member: card schemes and kinds are a payment by card. */
const MEMBER_WORDS: Readonly<Record<string, RegExp>> = {
  card: /\b(visa|mastercard|maestro|amex|american express|diners|discover|jcb|unionpay|debit|credit|contactless|eftpos|girocard|apple pay|google pay|chip and pin)\b/,
  // Change handed back ("Change    3.50", "Change due: 0.50", not "Change 0.00") is what paying
  // in cash leaves (matched on the normalised text: lower case, no punctuation or signs).
  cash: /\bchange(?:\s+due)?\s+(?:[a-z]{3}\s*)?\d*[1-9]/,
};

/** The enum member `text` names (exact, then as a whole word inside the text). */
export function matchEnum<T extends string | number | boolean>(
  text: string,
  values: readonly T[],
): T | undefined {
  const t = norm(text);
  for (const v of values) if (norm(String(v)) === t) return v;

  for (const v of values) {
    const n = norm(String(v));
    if (n !== '' && new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(t))
      return v;
  }
  for (const v of values) {
    const words = MEMBER_WORDS[norm(String(v))];
    if (words?.test(t)) return v;
  }
  return undefined;
}
