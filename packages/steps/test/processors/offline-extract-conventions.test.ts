/**
 * Offline extraction of what documents say by layout convention: the issuer from the letterhead
 * (the most prominent name, not the title, a logo's initials or a date), the addressee from
 * "Dear …" completed by the inside address, identifiers without the words run into them,
 * periods split into their ends, the currency and the date order of the document, items whose
 * columns are named vaguely or split into debit and credit. Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { addressees, namedIssuer } from '../../src/processors/offline/conventions.ts';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentPage } from '../../src/processors/view/document-view.ts';
import { blocksPage } from '../fixtures/view/blocks-page.ts';

const str = (description?: string) => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
});
const num = { type: ['number', 'null'] };
const date = { type: ['string', 'null'], format: 'date' };

function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('organisations and people by convention', () => {
  it('takes the issuer from the letterhead: the prominent name, not the title or the initials', () => {
    const output = blocksPage([
      { text: 'HC', box: [50, 30, 90, 60] },
      { text: 'Hooli Cloud', box: [50, 62, 170, 80] },
      { text: '12 Market Street', box: [50, 82, 140, 92] },
      { text: 'INVOICE', box: [420, 40, 540, 62] },
      { text: 'Invoice number: INV-7', box: [380, 70, 540, 80] },
      { text: 'Date: 03/14/2024', box: [380, 82, 540, 92] },
      { text: 'Bill to: Northwind Traders', box: [50, 120, 200, 130] },
    ]);
    const view = buildDocumentView([{ output }]);
    const value = offlineExtract(view, {
      type: 'object',
      properties: { vendor_name: str('The company that issued the invoice'), customer_name: str() },
    }).value;
    expect(value).toEqual({ vendor_name: 'Hooli Cloud', customer_name: 'Northwind Traders' });
  });

  it("gives a purchase order's letterhead to the buyer when the vendor is labelled", () => {
    const value = extract(
      [
        'Acme Industrial Supply Ltd',
        '400 Industrial Way',
        '',
        'PURCHASE ORDER',
        'Vendor: Blue Harbor Logistics',
        'PO Number: PO-8806',
      ].join('\n'),
      { buyer: str('The company placing the order'), vendor_name: str() },
    );
    expect(value).toEqual({
      buyer: 'Acme Industrial Supply Ltd',
      vendor_name: 'Blue Harbor Logistics',
    });
  });

  it('completes a salutation from the inside address, without the honorific', () => {
    const value = extract(
      [
        'Lakeside Catering Co',
        '',
        'Ms. Maria Lopez',
        'Head of Procurement',
        '9 Elm Avenue',
        'Austin, TX 78701',
        '',
        'Dear Ms. Lopez,',
        'Thank you for your letter.',
        '',
        'Kind regards,',
        '',
        'Peter Novak',
      ].join('\n'),
      {
        recipient: str('The person the letter is addressed to'),
        signedBy: str('Name of the signatory'),
      },
    );
    expect(value).toEqual({ recipient: 'Maria Lopez', signedBy: 'Peter Novak' });
  });

  it('reads the letterhead and the salutation on the first page with text, after a blank one', () => {
    const view = buildDocumentView([
      {
        output: textToParseOutput([
          '',
          [
            'Redwood Office Products Ltd',
            '88 King Street West',
            '12/11/2023',
            'Dear Prof. Kowalski,',
            'Our team will contact you shortly.',
          ].join('\n'),
        ]),
      },
    ]);
    const value = offlineExtract(view, {
      type: 'object',
      properties: {
        sender_organization: str('The organisation that sent the letter'),
        recipient_name: str('The person the letter is addressed to'),
      },
    }).value;
    expect(value).toEqual({
      sender_organization: 'Redwood Office Products Ltd',
      recipient_name: 'Kowalski',
    });
  });

  it("reads a date the label calls the issue date as the date of the document's own kind", () => {
    const text = [
      'Contoso Electronics GmbH',
      'PURCHASE ORDER',
      'Order No.    PO-99-860',
      'Date Raised    22-Aug-2024',
      'Delivery Required    12-Sep-2024',
    ].join('\n');
    const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
    const output = offlineExtract(view, {
      type: 'object',
      properties: { po_number: str(), order_date: date, delivery_date: date },
    });
    expect(output.value).toEqual({
      po_number: 'PO-99-860',
      order_date: '2024-08-22',
      delivery_date: '2024-09-12',
    });
    // By its own label, not by a date standing near the top.
    expect(output.metadata.order_date?.insights?.[0]?.content).toContain('"Date Raised"');
  });

  it('takes a statement holder from the address block under the letterhead', () => {
    const value = extract(
      [
        'First Harbor Bank',
        '77 Harbor Road',
        '',
        'Peter Novak',
        '1550 Commerce Blvd',
        'Springfield, IL 62701',
        '',
        'Account Number: 12345678',
      ].join('\n'),
      { bank_name: str(), account_holder: str(), account_number: str() },
    );
    expect(value).toEqual({
      bank_name: 'First Harbor Bank',
      account_holder: 'Peter Novak',
      account_number: '12345678',
    });
  });
});

describe('letterheads beside label/value pairs', () => {
  it('takes the name beside the invoice grid, not the bill-to company under it', () => {
    const value = extract(
      [
        'J C                       Invoice',
        'Juniper Cloud             Invoice No.      416055',
        'Hauptstraße 41            Date of issue    2023-01-21',
        'Bill To',
        'Zephyr Components AG',
        '77 Harbor Road',
      ].join('\n'),
      { vendor_name: str('The company that issued the invoice'), customer_name: str() },
    );
    expect(value).toEqual({ vendor_name: 'Juniper Cloud', customer_name: 'Zephyr Components AG' });
  });

  it('reads a building society as a name, not an address', () => {
    const value = extract(
      [
        'Greenway Building Society      STATEMENT OF ACCOUNT',
        '3 Rue des Lilas',
        'Olumide Rossi      Account No.    90036942',
        'Hauptstraße 41     Branch         61-40-77',
      ].join('\n'),
      { bank_name: str('The bank that issued the statement') },
    );
    expect(value).toEqual({ bank_name: 'Greenway Building Society' });
  });
});

describe('addressees', () => {
  it('completes a salutation by given name from the inside address', () => {
    const value = extract(
      [
        'Silverline Logistics B.V.',
        '12 November 2023',
        'Ingrid Kowalski',
        '3 Rue des Lilas',
        '75011 Paris',
        'Dear Ingrid,',
        'Thank you for your visit last week.',
      ].join('\n'),
      { recipient: str('The person the letter is addressed to') },
    );
    expect(value).toEqual({ recipient: 'Ingrid Kowalski' });
  });
});

describe('values', () => {
  it('keeps identifiers free of the words a layout ran into them', () => {
    const value = extract('PO Number: PO-8806 Order\nAccount: 3795 Statement', {
      po_number: str(),
      account_number: str(),
    });
    expect(value).toEqual({ po_number: 'PO-8806', account_number: '3795' });
  });

  it('splits a period into its start and end, and reads dates in the order the document uses', () => {
    const value = extract('Statement Period: 01/03/2024 - 31/03/2024\nPosted: 04/03/2024', {
      period_start: date,
      period_end: date,
      posted: date,
    });
    expect(value).toEqual({
      period_start: '2024-03-01',
      period_end: '2024-03-31',
      posted: '2024-03-04',
    });
  });

  it('gives the currency the amounts are written in', () => {
    expect(
      extract('Subtotal: 1.408,53 €\nTotal: 1.507,13 €', { currency: str('ISO 4217 code') }),
    ).toEqual({ currency: 'EUR' });
  });

  it("fills an unmatched identifier with the document's only other one", () => {
    expect(
      extract('CITY HARDWARE\nTrans #: R127244\nTotal: 15.63', { receipt_number: str() }),
    ).toEqual({ receipt_number: 'R127244' });
  });
});

describe('items', () => {
  it('finds quantity, unit price and amount by arithmetic when headers say little', () => {
    const value = extract(
      [
        'Article              Pcs     Each       Sum',
        'Steel bracket          4    12.50     50.00',
        'Site survey            2   100.00    200.00',
      ].join('\n'),
      {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { description: str(), quantity: num, unit_price: num, amount: num },
          },
        },
      },
    );
    expect(value.items).toEqual([
      { description: 'Steel bracket', quantity: 4, unit_price: 12.5, amount: 50 },
      { description: 'Site survey', quantity: 2, unit_price: 100, amount: 200 },
    ]);
  });

  it('signs amounts from debit and credit columns and skips balance-forward rows', () => {
    const value = extract(
      [
        'Date         Details                 Paid out    Paid in     Balance',
        '13/03/2024   Balance brought forward                        1,000.00',
        '14/03/2024   Card payment GROCERY       45.10                 954.90',
        '15/03/2024   Salary ACME CORP                    2,000.00   2,954.90',
      ].join('\n'),
      {
        entries: {
          type: 'array',
          items: { type: 'object', properties: { date, text: str(), amount: num, balance: num } },
        },
      },
    );
    expect(value.entries).toEqual([
      { date: '2024-03-14', text: 'Card payment GROCERY', amount: -45.1, balance: 954.9 },
      { date: '2024-03-15', text: 'Salary ACME CORP', amount: 2000, balance: 2954.9 },
    ]);
  });

  it('reads a quantity written into the description of a till receipt', () => {
    const value = extract(
      ['Description       Amount', '2 x Coffee          7.00', 'Bagel 3 @ 1.50      4.50'].join(
        '\n',
      ),
      {
        items: {
          type: 'array',
          items: { type: 'object', properties: { description: str(), quantity: num, amount: num } },
        },
      },
    );
    expect(value.items).toEqual([
      { description: 'Coffee', quantity: 2, amount: 7 },
      { description: 'Bagel', quantity: 3, amount: 4.5 },
    ]);
  });
});

describe('items of a till receipt', () => {
  it('reads the lines of a receipt without a header above its total as items', () => {
    const properties = {
      items: {
        type: 'array',
        items: { type: 'object', properties: { description: str(), quantity: num, amount: num } },
      },
    };
    const value = extract(
      [
        'CORNER CAFE',
        'Date    12/03/2024',
        '',
        'Coffee            3.50',
        '2 x Bagel         4.00',
        'Orange juice      4.25',
        'Subtotal         11.75',
        'TOTAL            11.75',
      ].join('\n'),
      properties,
    );
    // A till prints a count only when it is more than one: an item without one is one.
    expect(value.items).toEqual([
      { description: 'Coffee', quantity: 1, amount: 3.5 },
      { description: 'Bagel', quantity: 2, amount: 4 },
      { description: 'Orange juice', quantity: 1, amount: 4.25 },
    ]);
    // Labels and their values with no total under them are no items.
    const fields = extract(
      ['Invoice No.      INV-7', 'Tax rate          20.00', 'Discount          5.00'].join('\n'),
      properties,
    );
    expect(fields.items).toEqual([]);
  });

  it('reads headerless item lines with a count column, a count after the item, a tax code', () => {
    const properties = {
      items: {
        type: 'array',
        items: { type: 'object', properties: { description: str(), quantity: num, amount: num } },
      },
    };
    const lines = (items: readonly string[]) =>
      extract(['CORNER CAFE', ...items, 'TOTAL    11.40'].join('\n'), properties).items;
    const expected = [
      { description: 'Latte', quantity: 2, amount: 6.4 },
      { description: 'Croissant', quantity: 1, amount: 2.5 },
      { description: 'Milk 2L', quantity: 1, amount: 2.5 },
    ];
    expect(lines(['Latte    2    6.40', 'Croissant    1    2.50', 'Milk 2L    1    2.50'])).toEqual(
      expected,
    );
    expect(lines(['2    Latte    6.40', '1    Croissant    2.50', '1    Milk 2L    2.50'])).toEqual(
      expected,
    );
    expect(lines(['Latte x2    6.40 A', 'Croissant    2.50 A', 'Milk 2L    2.50 B'])).toEqual(
      expected,
    );
    // An item bought more than once on two lines: its name, then its count at its unit price.
    expect(
      lines(['Latte', '2 @ 3.20    6.40', 'Croissant    2.50', 'Milk 2L', '1 x 2.50    2.50']),
    ).toEqual(expected);
    // Its count and price written together.
    expect(
      lines(['Latte', '2x3.20    6.40', 'Croissant    2.50', 'Milk 2L', '1 x 2.50    2.50']),
    ).toEqual(expected);
    // A unit price without a column of its own is no count of units.
    const priced = extract(
      ['CORNER CAFE', 'Latte    6.40', 'Tea    2.50', 'TOTAL    8.90'].join('\n'),
      {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { description: str(), unit_price: num, amount: num },
          },
        },
      },
    ).items;
    expect(priced).toEqual([
      { description: 'Latte', unit_price: null, amount: 6.4 },
      { description: 'Tea', unit_price: null, amount: 2.5 },
    ]);
  });

  it("takes no item from the receipt's foot: a total after a speck, balance, change, paid by", () => {
    const value = extract(
      [
        'Description       Amount',
        'Coffee              7.00',
        'Cash deposit box    4.50',
        'g    Total excl. tax    11.50',
        'BALANCE            11.50',
        'Tendered           20.00',
        'Change              8.50',
        'Paid by             Cash',
      ].join('\n'),
      {
        items: {
          type: 'array',
          items: { type: 'object', properties: { description: str(), amount: num } },
        },
      },
    );
    expect(value.items).toEqual([
      { description: 'Coffee', amount: 7 },
      { description: 'Cash deposit box', amount: 4.5 },
    ]);
  });
});

describe('classification by the shape of a till receipt', () => {
  it('reads a narrow page with a time and a masked card number as a receipt', () => {
    const output = blocksPage(
      [
        { text: 'CITY HARDWARE', box: [20, 20, 120, 32] },
        { text: '27/10/2023 16:50', box: [20, 40, 120, 50] },
        { text: 'Hammer    12.00', box: [20, 60, 200, 70] },
        { text: 'Total    12.00', box: [20, 80, 200, 90] },
        { text: 'VISA ****1150', box: [20, 100, 120, 110] },
      ],
      227,
      400,
    );
    const view = buildDocumentView([{ output }]);
    const out = offlineClassify(view, {
      classifications: [
        { id: 'inv', type: 'invoice' },
        { id: 'rct', type: 'receipt' },
        { id: 'other', type: 'other' },
      ],
    });
    expect(out.id, JSON.stringify(out)).toBe('rct');
  });
});

describe('issuers and addressees outside the letterhead', () => {
  const pages = (text: string) => buildDocumentView([{ output: textToParseOutput([text]) }]).pages;

  it("takes a page's naming sentence over a legal statement above it", () => {
    const issuer = namedIssuer(
      pages(
        [
          'Order 5521',
          'Meridian Ltd · Registered in England No. 0123',
          'Cheques payable to Fresh Basket Grocers Inc.',
        ].join('\n'),
      ),
    );
    expect(issuer?.value).toBe('Fresh Basket Grocers Inc.');
  });

  it('names an address block in a right-hand column once, by its first line', () => {
    const [page] = pages(
      [
        'Invoice No: 77                      Jane Smith',
        'Date: 1 May 2024                    Acme Trading Ltd',
        'Terms: 30 days                      12 High Street',
        'Due: 31 May 2024                    London SW1A 1AA',
      ].join('\n'),
    );
    expect(addressees(page as DocumentPage).map((f) => f.value)).toEqual(['Jane Smith']);
  });
});

describe('a label repeated on a later page', () => {
  it('feeds one property, however its punctuation differs', () => {
    const view = buildDocumentView([
      {
        output: textToParseOutput([
          'INVOICE\nInvoice No.: INV-1\nDate: 01/02/2024\nTotal: 10.00',
          'Invoice No: INV-1\nPage 2 of 2',
        ]),
      },
    ]);
    const value = offlineExtract(view, {
      type: 'object',
      properties: { invoice_number: str(), reference: str('A reference number') },
    }).value;
    expect(value).toEqual({ invoice_number: 'INV-1', reference: null });
  });
});
