/**
 * The day and month order of numeric dates such as 08/01/2024, settled from the document's own
 * evidence (date-order.ts): another date of the same separator, dates written with month names,
 * the amounts, the paper, the issuer's address. Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { dateOrder } from '../../src/processors/offline/date-order.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentView } from '../../src/processors/view/document-view.ts';

const A4 = { width: 595.28, height: 841.89 };
const LETTER = { width: 612, height: 792 };

/** A one-page view of `lines` on paper of `size`; a spreadsheet sheet when `size` is 'sheet'. */
function view(lines: readonly string[], size: typeof A4 | 'sheet' = LETTER): DocumentView {
  const v = buildDocumentView([{ output: textToParseOutput([lines.join('\n')]) }]);
  return {
    ...v,
    pages: v.pages.map((p) => (size === 'sheet' ? { ...p, sheetIndex: 0 } : { ...p, ...size })),
  };
}

const order = (
  lines: readonly string[],
  size?: typeof A4 | 'sheet',
  currency: string | null = null,
) => dateOrder(view(lines, size).pages, currency);

describe('date order', () => {
  it('takes it from another date of the same separator that reads only one way', () => {
    expect(order(['Date 08/01/2024', 'Due 25/01/2024'])).toBe(true);
    expect(order(['Date 08/01/2024', 'Due 01/25/2024'], A4)).toBe(false);
  });

  it('does not let a dotted date decide a slash one', () => {
    // 25.01.2024 is day first whatever the document does with slashes; the US Letter page says
    // month first.
    expect(order(['Date 08/01/2024', 'Delivered 25.01.2024'])).toBe(false);
  });

  it('reads month names written elsewhere before the amounts and the paper', () => {
    expect(order(['08/01/2024', 'As agreed on 8 January 2024'])).toBe(true);
    expect(order(['08/01/2024', 'Due 8-Jan-2024'])).toBe(true);
    expect(order(['08/01/2024', 'As agreed on January 8, 2024', 'Total £120.00'], A4, 'GBP')).toBe(
      false,
    );
  });

  it('reads the amounts before the paper: another currency or a decimal comma day first', () => {
    expect(order(['08/01/2024', 'Total £120.00'], LETTER, 'GBP')).toBe(true);
    expect(order(['08/01/2024', 'Summe 1.234,50'])).toBe(true);
    expect(order(['08/01/2024', 'Total $120.00'], A4, 'USD')).toBe(false);
  });

  it('reads the paper when nothing else says: A4 day first, US Letter month first', () => {
    expect(order(['Dear Ms Novak,', '08/01/2024'], A4)).toBe(true);
    expect(order(['Dear Ms Novak,', '08/01/2024'])).toBe(false);
  });

  it('reads the first address clue on a page without paper, the issuer letterhead first', () => {
    const zurich = ['12 Market Street', '8001 Zürich'];
    const portland = ['77 Harbor Road', 'Portland, OR 97205'];
    expect(order([...zurich, ...portland, '08/01/2024'], 'sheet')).toBe(true);
    expect(order([...portland, ...zurich, '08/01/2024'], 'sheet')).toBe(false);
    expect(order(['Leeds LS1 4AP', '08/01/2024'], 'sheet')).toBe(true);
    expect(order(['Tel. +41 44 123 45 67', '08/01/2024'], 'sheet')).toBe(true);
    expect(order(['Tel. +1 503 555 0100', '08/01/2024'], 'sheet')).toBe(false);
    // A street number is not a postcode.
    expect(order(['1550 Commerce Blvd', '08/01/2024'], 'sheet')).toBeUndefined();
  });

  it('extracts a letter on A4 with no other clue day first', () => {
    const letter = view(
      ['Castellano Engineering Ltd', '08/01/2024', 'Dear Prof. Novak,', 'Yours sincerely,'],
      A4,
    );
    const value = offlineExtract(letter, {
      type: 'object',
      properties: { date: { type: ['string', 'null'], format: 'date' } },
    }).value;
    expect(value).toEqual({ date: '2024-01-08' });
  });
});
