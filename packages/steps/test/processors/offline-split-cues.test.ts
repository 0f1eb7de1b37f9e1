/**
 * Boundaries between adjacent documents of the same type: identifiers that change (even when
 * the two documents name their number differently), another organisation's letterhead, page
 * numbering that restarts; and continuation pages that stay with their document.
 */
import { describe, expect, it } from 'vitest';
import { offlineSplit } from '../../src/processors/offline/offline-split.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'inv', type: 'invoice' },
  { id: 'rct', type: 'receipt' },
  { id: 'stmt', type: 'bank_statement' },
  { id: 'other', type: 'other' },
];

function ranges(pages: readonly string[]): string {
  const view = buildDocumentView([{ output: textToParseOutput(pages) }]);
  return offlineSplit(view, { splitClassifications: classifications })
    .map((s) => `${s.startPage}-${s.endPage}`)
    .join(',');
}

const receipt = (shop: string, label: string, id: string) =>
  [
    shop,
    '12 Market Street',
    `${label}: ${id}`,
    'Coffee    3.50',
    'TOTAL    3.50',
    'Paid by: VISA ****1150',
  ].join('\n');

describe('same-type neighbours', () => {
  it('splits two receipts whose numbers have different labels', () => {
    expect(
      ranges([
        receipt('Sunrise Bakery', 'Receipt #', 'TRN-832773'),
        receipt('Harbor Pharmacy', 'Trans #', '1019-1717-76'),
      ]),
    ).toBe('1-1,2-2');
  });

  it('splits two statements of one bank for different accounts, keeping each one whole', () => {
    const statement = (account: string, page: number, of: number) =>
      [
        'First Harbor Bank Ltd',
        'Account Statement',
        `Account Number: ${account}`,
        'Date    Description    Amount    Balance',
        '01/03/2024    ATM withdrawal    -20.00    980.00',
        `Page ${page} of ${of}`,
      ].join('\n');
    expect(
      ranges([
        statement('12345678', 1, 2),
        statement('12345678', 2, 2),
        statement('87654321', 1, 1),
      ]),
    ).toBe('1-2,3-3');
  });

  it('gives blank leading pages to the document that follows them', () => {
    const letter = (to: string) =>
      [
        'Northwind Components AG',
        '12 Market Street',
        '02/08/2025',
        `Dear ${to},`,
        'Thank you for your order of last week.',
        'Kind regards,',
        'Grace Becker',
      ].join('\n');
    // A producer that starts each letter with an empty page: two letters, two pages each.
    expect(ranges(['', letter('Ms. Lopez'), '', letter('Mr. Whitaker')])).toBe('1-2,3-4');
  });

  it("splits at another organisation's letterhead when nothing else tells", () => {
    const invoice = (vendor: string) =>
      [
        `${vendor}`,
        '400 Industrial Way',
        'INVOICE',
        'Consulting    100.00',
        'Total    100.00',
      ].join('\n');
    expect(ranges([invoice('Northwind Traders Ltd'), invoice('Blue Harbor Logistics GmbH')])).toBe(
      '1-1,2-2',
    );
  });

  it('keeps a continuation page that shows the same identifier under another label with its document', () => {
    const first = [
      'Acme Supply Ltd',
      'INVOICE',
      'Invoice Number: INV-7',
      'Item    Amount',
      'Widget    5.00',
    ].join('\n');
    const second = [
      'Acme Supply Ltd',
      'Invoice INV-7 (continued)',
      'Item    Amount',
      'Gadget    7.00',
      'Total    12.00',
    ].join('\n');
    expect(ranges([first, second])).toBe('1-2');
  });
});
