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

  it('splits two receipts of one shop whose numbers are labelled by a document name alone', () => {
    const slip = (label: string, id: string, what: string) =>
      [
        'Northgate Fuel',
        '1550 Commerce Blvd',
        `${label}    ${id}`,
        `${what}    31.04`,
        'TOTAL    31.04',
        'Paid by    VISA ****1150',
      ].join('\n');
    expect(
      ranges([
        slip('Check', 'TRN-990789', '2 x Coffee'),
        slip('Ticket', '9779-2903-33', '1 x Parking'),
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

  it("splits one account's statements of two months, keeping a month's continuation page", () => {
    const statement = (period: string, opening: string, rows: readonly string[]) =>
      [
        'First Harbor Bank Ltd',
        'Account Statement',
        'Account Number: 12345678',
        `Statement Period: ${period}`,
        `Opening Balance: ${opening}`,
        'Date    Description    Amount    Balance',
        ...rows,
      ].join('\n');
    const march = statement('01/03/2024 - 31/03/2024', '1,000.00', [
      '04/03/2024    ATM withdrawal    -20.00    980.00',
    ]);
    const marchGoesOn = [
      'First Harbor Bank Ltd',
      'Account Number: 12345678',
      'Date    Description    Amount    Balance',
      '28/03/2024    Card payment    -30.00    950.00',
      'Closing Balance: 950.00',
    ].join('\n');
    const april = statement('01/04/2024 - 30/04/2024', '950.00', [
      '02/04/2024    Salary    1,500.00    2,450.00',
      'Closing Balance: 2,450.00',
    ]);
    expect(ranges([march, marchGoesOn, april])).toBe('1-2,3-3');
    // The same by a statement date rather than a period.
    const dated = (date: string, id: string) =>
      [
        'Harbor Savings Bank',
        `Statement Date: ${date}`,
        `Account No.: ${id}`,
        'Date    Description    Amount    Balance',
        '02/04/2024    Interest    1.50    101.50',
      ].join('\n');
    expect(ranges([dated('31 March 2024', '5550'), dated('30 April 2024', '5550')])).toBe(
      '1-1,2-2',
    );
    // And by a month, or a period whose start has no year.
    expect(ranges([dated('March 2024', '5550'), dated('April 2024', '5550')])).toBe('1-1,2-2');
    expect(
      ranges([dated('1 Mar - 31 Mar 2024', '5550'), dated('1 Apr - 30 Apr 2024', '5550')]),
    ).toBe('1-1,2-2');
  });

  it('keeps the pages of figures of a statement that starts after a blank page with it', () => {
    const head = [
      'Royal Crown Bank',
      'Bank Statement',
      'Acct #    77118192',
      'Period    1 August 2022 - 31 August 2022',
      'Opening balance    8,561.50',
    ].join('\n');
    // A page that says little of its kind (it reads as a receipt, weakly), then one that says
    // more: the blank page's lack of confidence must not let the weak page set the kind.
    const weak = [
      '9 August 2022    Card payment    -449.54',
      '10 August 2022    Cheque 000184    -69.50',
      '11 August 2022    Transfer    -12.00',
    ].join('\n');
    const strong = [
      'Date    Transaction    Withdrawals    Deposits    Balance',
      '22 August 2022    Refund ONLINE STORE        3,300.62    11,412.58',
      '23 August 2022    Bank charges    69.50        11,343.08',
      'Closing balance    11,343.08',
    ].join('\n');
    expect(ranges(['', head, weak, strong])).toBe('1-4');
  });

  it("keeps a statement's page of card payments with it, though the page reads a little like a receipt", () => {
    const head = [
      'Royal Crown Bank',
      'Bank Statement',
      'Account No.    819378352690',
      'Period    01/03/2023 - 31/03/2023',
      'Opening balance    15,642.73',
      'Posting Date    Details    Withdrawals    Deposits    Balance',
      '01/03/2023    Salary ACME CORP        838.78    16,481.51',
    ].join('\n');
    const shops = ['RESTAURANT', 'ONLINE STORE', 'FUEL STATION', 'GROCERY MART'];
    const payments = [
      'Posting Date    Details    Withdrawals    Deposits    Balance',
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `${String(10 + i)}/03/2023    Card payment ${shops[i % 4]}    ${20 + i}.15        ${16000 - 30 * i}.00`,
      ),
      '28/03/2023    Interest paid        1.20    15,641.20',
    ].join('\n');
    expect(ranges([head, payments])).toBe('1-2');
  });

  describe('statements of one account without a period', () => {
    const page = (lines: readonly string[]) =>
      ['Harbor Savings Bank', 'Account Statement', 'Account No.: 5550123', ...lines].join('\n');
    const row = '02/04/2024    Interest    1.50    101.50';

    it('splits where a closing balance is followed by an opening one', () => {
      const month = page(['Opening Balance: 100.00', row, 'Closing Balance: 101.50']);
      expect(ranges([month, month.replace('100.00', '101.50')])).toBe('1-1,2-2');
    });

    it('keeps pages that carry a balance forward, or repeat the same summary, together', () => {
      const forward = [
        page(['Opening Balance: 100.00', row, 'Balance carried forward: 101.50']),
        page(['Balance brought forward: 101.50', row, 'Closing Balance: 103.00']),
      ];
      expect(ranges(forward)).toBe('1-2');
      const summary = page([
        'Statement Period: 01/04/2024 - 30/04/2024',
        'Opening Balance: 100.00',
        'Closing Balance: 103.00',
        row,
      ]);
      expect(ranges([summary, summary])).toBe('1-2');
    });

    it('reads page numbers written as "p. 1 of 2" and "Sheet 2/2"', () => {
      const numbered = (n: string) => page([row, n]);
      expect(
        ranges([
          numbered('p. 1 of 2'),
          numbered('Sheet 2/2'),
          numbered('p. 1 of 2'),
          numbered('Sheet 2/2'),
        ]),
      ).toBe('1-2,3-4');
    });
  });
});

describe('a title spaced out letter by letter', () => {
  it('starts a new titled document as the solid title does', () => {
    const first = [
      'INVOICE',
      'Quarry Hill Studio',
      'To: Harbour Foods Ltd',
      'Site survey    540.00',
      'Total due    540.00',
      'Please pay within 30 days',
    ].join('\n');
    const second = (title: string) =>
      [
        title,
        'Quarry Hill Studio',
        'No.: 2291',
        'To: Dockside Bakery',
        'Design review    300.00',
        'Total due    300.00',
        'Please pay within 30 days',
      ].join('\n');
    expect(ranges([first, second('INVOICE')])).toBe('1-1,2-2');
    expect(ranges([first, second('I N V O I C E')])).toBe('1-1,2-2');
  });
});
