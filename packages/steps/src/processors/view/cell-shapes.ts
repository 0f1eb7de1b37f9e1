/** What a cell of text is by its shape: a label, or a figure. */
import { parseDate } from '../value-coercion.ts';

/** A cell that reads as a label: a few words, starting with a letter, no long numbers or dates. */
const LABEL_CELL = /^[\p{L}][\p{L}\p{N} .#/&()'%+-]{0,38}:?$/u;

/** True when a cell's text has the shape of a label ("Invoice No.", "Due date:", "VAT 20%"). */
export function isLabelCell(text: string): boolean {
  // A rate in a label ("Sales Tax 8.25%", "VAT (7,5 %)") is part of its name.
  // So is the rate an "@" gives ("VAT @ 20%").
  const t = text
    .trim()
    .replace(/\s@\s?(?=\d)/g, ' ')
    .replace(/\(?\d{1,2}(?:[.,]\d{1,3})?\s?%\)?/g, '5%');
  if (!LABEL_CELL.test(t) || t.split(/\s+/).length > 6) return false;
  if (/\d{3,}|\d[.,]\d/.test(t) || parseDate(t) !== undefined) return false;
  // A word of letters and digits together is a code ("INV-77", "A25"), not a label's word.
  if (t.split(/\s+/).some((w) => /\p{L}/u.test(w) && /\d/.test(w) && !/^\d+%$/.test(w)))
    return false;
  // "Sincerely," or a sentence's end are not labels; "No." and "Ref." are.
  if (/,$/.test(t)) return false;
  if (/\.$/.test(t) && !/(^|\s)[\p{L}]{1,5}\.$/u.test(t)) return false;
  return true;
}

/** True for a cell of digits, amounts or codes rather than words. */
export function numeric(text: string): boolean {
  const t = text.replace(/\s/g, '');
  return t !== '' && (t.match(/[\d.,'’()%$€£¥₹+-]/g) ?? []).length >= t.length * 0.6;
}

/**
 * An amount with cents as documents write it: a currency code or sign before or after it
 * (`USD 3,472.51`, `CA$ 5.00`, `12,00 €`), a sign or brackets (`-12.50`, `$-4.00`, `(7.10)`),
 * thousands grouped by a comma, a point, an apostrophe or a space, or not at all (`1234.50`).
 */
export const AMOUNT_BODY = String.raw`[-−+(]?(?:[A-Z]{3}\s?|[A-Z]{1,2}(?=\p{Sc}))?\p{Sc}?\s?[-−]?\d{1,3}(?:[,.'’ ]?\d{3})*[.,]\d{2}\)?(?:\s?(?:[A-Z]{3}|\p{Sc}))?`;
const AMOUNT = new RegExp(`^${AMOUNT_BODY}$`, 'u');

/** True for a text that is an amount with cents and nothing else. */
export function isAmount(text: string): boolean {
  return AMOUNT.test(text.trim());
}

/** An amount with cents at the end of a text, after a space (group 1 is the amount). */
export const TRAILING_AMOUNT = new RegExp(String.raw`\s(${AMOUNT_BODY})$`, 'u');
