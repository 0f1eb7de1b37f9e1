import type { DocumentPage } from '../view/document-view.ts';

/**
 * Whether a document writes its numeric dates day first (08/01/2024 is 8 January), read from the
 * document's own evidence, strongest first:
 *
 * 1. another numeric date with the same separator that can only be read one way (31/03/2024 or
 *    03/31/2024);
 * 2. dates written with month names elsewhere on the page (`8 January 2024`, `8-Jan-2024` day
 *    first; `January 8, 2024` month first);
 * 3. the amounts: a decimal comma or a currency other than the US dollar says day first, the US
 *    dollar month first;
 * 4. the paper: A4 is the paper of day-first countries, US Letter and Legal of month-first ones;
 * 5. the first address or telephone clue in reading order (the issuer's letterhead comes first):
 *    a US state with its ZIP code or a +1 number says month first, a European or British
 *    postcode or another country's calling code day first.
 *
 * `undefined` when nothing says (the caller keeps its default, month first). Dotted dates are
 * always day first and never decide slash or dash ones.
 */
export function dateOrder(
  pages: readonly DocumentPage[],
  currency: string | null,
): boolean | undefined {
  const lines = pages.flatMap((p) => p.lines.map((l) => l.text));
  return (
    numericEvidence(lines) ??
    writtenMonthEvidence(lines) ??
    amountEvidence(lines, currency) ??
    paperEvidence(pages) ??
    addressEvidence(lines)
  );
}

const NUMERIC = /\b(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})\b/g;

/** The verdict of the unambiguous dates that share the separator of the ambiguous ones. */
function numericEvidence(lines: readonly string[]): boolean | undefined {
  const count = new Map<string, { day: number; month: number; open: number }>();
  for (const line of lines)
    for (const m of line.matchAll(NUMERIC)) {
      const sep = m[2] as string;
      const c = count.get(sep) ?? { day: 0, month: 0, open: 0 };
      const a = Number(m[1]);
      const b = Number(m[3]);
      if (a > 12 && b <= 12) c.day++;
      else if (b > 12 && a <= 12) c.month++;
      else if (a <= 12 && b <= 12 && a !== b) c.open++;
      count.set(sep, c);
    }
  const verdicts = new Set<boolean>();
  for (const c of count.values()) {
    if (c.open === 0) continue;
    if (c.day > 0 && c.month === 0) verdicts.add(true);
    else if (c.month > 0 && c.day === 0) verdicts.add(false);
  }
  return verdicts.size === 1 ? [...verdicts][0] : undefined;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY_MONTH = new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?[\\s-]+${MONTH}\\.?[\\s-]+\\d{4}\\b`, 'i');
const MONTH_DAY = new RegExp(`\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,\\s*\\d{4}\\b`, 'i');

function writtenMonthEvidence(lines: readonly string[]): boolean | undefined {
  const day = lines.some((l) => DAY_MONTH.test(l));
  const month = lines.some((l) => MONTH_DAY.test(l));
  return day === month ? undefined : day;
}

function amountEvidence(lines: readonly string[], currency: string | null): boolean | undefined {
  if (currency === 'USD') return false;
  if (currency !== null) return true;
  if (lines.some((l) => /\d[.\s]\d{3},\d{2}\b|\b\d+,\d{2}\b(?!\d)/.test(l))) return true;
  return undefined;
}

/** Portrait or landscape, within a few points (scans and printers round). */
const isSize = (p: DocumentPage, w: number, h: number) => {
  const [a, b] = p.width < p.height ? [p.width, p.height] : [p.height, p.width];
  return Math.abs(a - w) <= 4 && Math.abs(b - h) <= 4;
};

function paperEvidence(pages: readonly DocumentPage[]): boolean | undefined {
  const paged = pages.filter((p) => p.sheetIndex === undefined);
  if (paged.length === 0) return undefined;
  if (paged.every((p) => isSize(p, 595, 842))) return true;
  if (paged.every((p) => isSize(p, 612, 792) || isSize(p, 612, 1008))) return false;
  return undefined;
}

const US_STATE =
  'A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]';
const US_ADDRESS = new RegExp(`,\\s*(?:${US_STATE})\\s+\\d{5}(?:-\\d{4})?\\b`);
const US_PHONE = /(?:^|\s)\+1[\s-(]/;
const ELSEWHERE = [
  /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/, // a British postcode
  /(?:^|[,·]\s*)\d{4,5}\s+\p{Lu}\p{Ll}+\s*(?:$|[,·])/u, // a postcode before its town (Europe)
  /\b\p{Lu}\p{Ll}+\s+\d{6}\b/u, // a town before its PIN (India)
  /(?:^|\s)\+(?!1[\s-(])\d{2,3}[\s-(]/, // another country's calling code
];

function addressEvidence(lines: readonly string[]): boolean | undefined {
  for (const line of lines) {
    const us = US_ADDRESS.test(line) || US_PHONE.test(line);
    const other = ELSEWHERE.some((re) => re.test(line));
    if (us !== other) return other;
  }
  return undefined;
}
