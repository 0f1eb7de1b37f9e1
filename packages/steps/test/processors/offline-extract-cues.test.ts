/**
 * Offline extraction from cues other layouts and wordings give: balances named by abbreviations,
 * by the period's ends or by their date alone, a VAT invoice's tax date and "Settle by", a
 * currency named in words, an attention line over the organisation it is for, a buyer's contact
 * person beside the buyer's company, an issuer named only in a footer, a name wrapped before its
 * legal form, labels beside an address that do not all end as labels do. Inputs are built by the
 * tests.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentTable } from '../../src/processors/view/document-view.ts';
import { balanceRowFields, tableFields } from '../../src/processors/view/label-values.ts';

const str = { type: ['string', 'null'] };
const num = { type: ['number', 'null'] };
const date = { type: ['string', 'null'], format: 'date' };

function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

const balances = { opening_balance: num, closing_balance: num };

describe('balances', () => {
  it('reads b/f and c/f, and the start and end of the period, as opening and closing', () => {
    for (const [opening, closing] of [
      ['Balance b/f', 'Balance c/f'],
      ['Start-of-period balance', 'End-of-period balance'],
      ['Beginning of statement balance', 'End of month balance'],
    ])
      expect(
        extract(
          ['Account Statement', `${opening}    1,200.00`, `${closing}    1,350.50`].join('\n'),
          balances,
        ),
      ).toEqual({ opening_balance: 1200, closing_balance: 1350.5 });
  });

  it('reads a balance named by its date alone by where the date falls among the rows', () => {
    const rows = [
      'Date          Description            Amount      Balance',
      '2024-03-04    Card payment CAFE      -50.00     1,150.00',
      '2024-03-28    Salary ACME            200.50     1,350.50',
    ];
    const value = extract(
      [
        'Account Statement',
        'Balance on 1 March 2024    1,200.00',
        'Balance on 31 March 2024    1,350.50',
        '',
        ...rows,
      ].join('\n'),
      balances,
    );
    expect(value).toEqual({ opening_balance: 1200, closing_balance: 1350.5 });
  });
});

describe('dates and currency', () => {
  it("reads a VAT invoice's tax date as its date and 'Settle by' as its due date", () => {
    expect(
      extract(['Invoice', 'Tax date: 06-Dec-2025', 'Settle by: 05-Jan-2026'].join('\n'), {
        invoice_date: date,
        due_date: date,
      }),
    ).toEqual({ invoice_date: '2025-12-06', due_date: '2026-01-05' });
  });

  it("reads an order's number as its purchase order's and a transaction's as its receipt's", () => {
    expect(
      extract(['Purchase Order', 'Requisition No.: RQ-77', 'P.O. No.: PO293131'].join('\n'), {
        orderNumber: str,
      }),
    ).toEqual({ orderNumber: 'PO293131' });
    expect(
      extract(['Corner Cafe', 'Terminal ID: T-0042', 'Receipt #: 5875-5021-54'].join('\n'), {
        transactionId: str,
      }),
    ).toEqual({ transactionId: '5875-5021-54' });
  });

  it('reads a currency a sentence names in words when no amount names one', () => {
    const currency = { currency: { ...str, description: 'ISO 4217 currency code' } };
    for (const [sentence, code] of [
      ['All amounts in euros.', 'EUR'],
      ['Prices are quoted in pounds sterling.', 'GBP'],
      ['Amounts are shown in Swiss francs.', 'CHF'],
    ])
      expect(
        extract(['Invoice', 'Total: 1,200.00', sentence].join('\n'), currency),
        sentence,
      ).toEqual({ currency: code });
    expect(extract('Invoice\nTotal: 1,200.00\nPaid in cash.', currency)).toEqual({
      currency: null,
    });
  });
});

describe('parties', () => {
  it('reads the organisation under an attention line as the addressee, not the contact', () => {
    const value = extract(
      [
        'INVOICE',
        '',
        'Attn: Maria Lopez',
        'Pioneer Design Studio Ltd',
        'Bahnhofplatz 7',
        '10115 Berlin',
        '',
        'Invoice No.: 4471',
        'Total: 100.00',
      ].join('\n'),
      { vendor_name: str, customer_name: str },
    );
    expect(value.customer_name).toBe('Pioneer Design Studio Ltd');
    expect(value.vendor_name).not.toBe('Pioneer Design Studio Ltd');
  });

  it('takes no label, greeting, title or broken sentence for a name', () => {
    const merchant = {
      merchant_name: { ...str, description: 'The store that issued the receipt' },
    };
    expect(
      extract(
        ['Welcome to Sunrise Bakery', '3 Rue des Lilas', 'Total: 12.00'].join('\n'),
        merchant,
      ),
    ).toEqual({ merchant_name: 'Sunrise Bakery' });
    const bank = { bank_name: str };
    expect(
      extract(
        [
          'Statement of your account',
          'Customer name    Rahul Novak',
          'Closing balance    1,350.50',
          'Union Credit Bank is authorised and regulated by the financial supervisor.',
        ].join('\n'),
        bank,
      ),
    ).toEqual({ bank_name: 'Union Credit Bank' });
  });

  it("reads a buyer's company rather than its contact person, and the person for want of one", () => {
    const buyer = { buyer: { ...str, description: 'The company placing the order' } };
    expect(
      extract(
        ['PURCHASE ORDER', 'Buyer: Aiko Rossi', 'Bill to: Hooli Engineering Inc.'].join('\n'),
        buyer,
      ),
    ).toEqual({ buyer: 'Hooli Engineering Inc.' });
    expect(
      extract(
        ['PURCHASE ORDER', "Buyer: Hannah O'Brien", 'Bill to: Lakeside Print Works LLC'].join('\n'),
        buyer,
      ),
    ).toEqual({ buyer: 'Lakeside Print Works LLC' });
    expect(extract(['PURCHASE ORDER', 'Buyer: Aiko Rossi'].join('\n'), buyer)).toEqual({
      buyer: 'Aiko Rossi',
    });
    // A company's name of capitalised words without a legal form is no person's.
    expect(
      extract(
        ['PURCHASE ORDER', 'Buyer: Maple Labs', 'Ship to: Oak Street Depot'].join('\n'),
        buyer,
      ),
    ).toEqual({ buyer: 'Maple Labs' });
  });

  it("reads the party goods are delivered to as a buyer's name when nothing names it better", () => {
    const order = {
      buyer: { ...str, description: 'The company placing the order' },
      vendor_name: { ...str, description: 'The supplier the order is sent to' },
    };
    expect(
      extract(
        [
          'Purchase Order PO-8544',
          'Contact: Henry Nakamura',
          '',
          'Deliver to            Supplier',
          'Hooli Analytics AG    Initech Components',
          'Bahnhofplatz 7        1550 Commerce Blvd',
          '10115 Berlin          75011 Paris',
        ].join('\n'),
        order,
      ),
    ).toEqual({ buyer: 'Hooli Analytics AG', vendor_name: 'Initech Components' });
  });

  it('reads labels and values beside an address in lines of text', () => {
    expect(
      extract(
        [
          'Current account',
          '',
          "MR DANIEL O'BRIEN     Statement for     Daniel O'Brien",
          '1550 Commerce Blvd    Account No        850-397143-11',
          'Mumbai 400053',
        ].join('\n'),
        { account_holder: str, account_number: str },
      ),
    ).toEqual({ account_holder: "Daniel O'Brien", account_number: '850-397143-11' });
  });

  it("reads a window address at the page's head as the addressee when a footer names the issuer", () => {
    expect(
      extract(
        [
          "Ms Grace O'Brien      Account number: 20829995",
          '12 Market Street      Sort Code: 74-41-50',
          '75011 Paris',
          '',
          'Closing balance: 1,350.50',
          'First Harbor Bank is authorised and regulated by the financial supervisor.',
        ].join('\n'),
        { institution: str, customerName: { ...str, description: 'Owner of the account' } },
      ),
    ).toEqual({ institution: 'First Harbor Bank', customerName: "Grace O'Brien" });
  });

  it('reads the issuer a footer names beside its address or as its registered office', () => {
    const vendor = { vendor_name: str };
    for (const [footer, name] of [
      [
        'Northwind Traders Ltd · 1550 Commerce Blvd · 10115 Berlin · VAT 86-9740672',
        'Northwind Traders Ltd',
      ],
      [
        'Registered office: Redwood Facilities Pvt. Ltd., 12 Market Street, Leeds LS1 4DY',
        'Redwood Facilities Pvt. Ltd.',
      ],
    ])
      expect(
        extract(['INVOICE', 'Invoice No.: 4471', 'Total: 100.00', '', footer].join('\n'), vendor),
        footer,
      ).toEqual({ vendor_name: name });
  });

  it('joins a name wrapped before its legal form to the value it ends', () => {
    expect(
      extract(
        [
          'PURCHASE ORDER',
          'Supplier: Castellano Components Pvt.    Bill to',
          'Ltd.                                    Stark Engineering B.V.',
        ].join('\n'),
        { vendor_name: { ...str, description: 'The supplier the order is sent to' } },
      ),
    ).toEqual({ vendor_name: 'Castellano Components Pvt. Ltd.' });
  });
});

describe('tables', () => {
  const region = { page: 1, pageWidth: 612, pageHeight: 792, polygon: [], ocrConfidence: null };
  const table = (rows: readonly (readonly string[])[]): DocumentTable => {
    const cells = rows.map((r) => r.map((text) => ({ text, region })));
    return { page: 1, header: cells[0] ?? [], rows: cells.slice(1) };
  };

  it('reads an opening or closing balance written as a row of the transactions', () => {
    const fields = (first: string, last: string) =>
      balanceRowFields(
        table([
          ['Date', 'Description', 'Amount', 'Balance'],
          ['01 Apr 2024', first, '', '1,200.00'],
          ['04 Apr 2024', 'Card payment CAFE', '-50.00', '1,150.00'],
          ['30 Apr 2024', last, '', '1,150.00'],
        ]),
      ).map((f) => `${f.label}=${f.value}`);
    expect(fields('Balance brought forward', 'Balance carried forward')).toEqual([
      'Balance brought forward=1,200.00',
      'Balance carried forward=1,150.00',
    ]);
    expect(fields('Balance on 1 April 2024', 'Balance on 30 April 2024')).toEqual([
      'Opening balance=1,200.00',
      'Closing balance=1,150.00',
    ]);
  });

  it('reads the pairs when a third of the labels end as labels do', () => {
    expect(
      tableFields(
        table([
          ['MR SOFIA ROSSI', 'Bank', 'First Harbor Bank'],
          ['12 Market Street', 'Account No', '120-229914-76'],
          ['Austin, TX 78701', 'Sort Code', '41-97-17'],
          ['', 'Period covered', '01-Jun-2022 to 30-Jun-2022'],
          ['', 'Opening balance', "8'627.10"],
          ['', 'Closing balance', "13'092.61"],
        ]),
      ).map((f) => `${f.label}=${f.value}`),
    ).toEqual([
      'Bank=First Harbor Bank',
      'Account No=120-229914-76',
      'Sort Code=41-97-17',
      'Period covered=01-Jun-2022 to 30-Jun-2022',
      "Opening balance=8'627.10",
      "Closing balance=13'092.61",
    ]);
  });
});
