/**
 * Offline extraction on English label wordings and layouts the evaluation corpus does not have:
 * other names for an invoice's number, date and totals ("Tax point", "Goods value", "VAT @ 20%"),
 * a delivery date asked as "Required Date", a statement's balances "at start of period", a
 * period written "From … to …", a letter-spaced letterhead, a label and its value under a row
 * that reads as labels. Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = (d?: string) => ({ type: ['string', 'null'], ...(d ? { description: d } : {}) });
const num = (d?: string) => ({ type: ['number', 'null'], ...(d ? { description: d } : {}) });
const date = (d?: string) => ({ ...str(d), format: 'date' });

function extract(lines: readonly string[], properties: object): Record<string, unknown> {
  const view = buildDocumentView([{ output: textToParseOutput([lines.join('\n')]) }]);
  return offlineExtract(view, { type: 'object', properties: properties as never }).value as Record<
    string,
    unknown
  >;
}

/** The expected fields of a case, as extracted (the others are not asked). */
function picked(got: Record<string, unknown>, expected: Record<string, unknown>) {
  return Object.fromEntries(Object.keys(expected).map((k) => [k, got[k]]));
}

const invoice = {
  invoice_number: str('The invoice number'),
  invoice_date: date('The date the invoice was issued'),
  due_date: date('The date payment is due'),
  po_number: str('The purchase order number'),
  vendor_name: str('The company that issued the invoice'),
  customer_name: str('The company billed'),
  subtotal: num(),
  tax: num(),
  total: num('The total amount due'),
};

const invoiceCases: [string, string[], Record<string, unknown>][] = [
  [
    'inv no',
    ['Acme Tools Ltd', 'Inv. No. 4471', 'Inv. Date 03/04/2024', 'Total 120.00'],
    { invoice_number: '4471', invoice_date: '2024-03-04', total: 120 },
  ],
  [
    'invoice ref',
    ['Acme Tools Ltd', 'Invoice Ref: AT-2291', 'Tax point: 12 May 2024', 'Amount payable: 99.00'],
    { invoice_number: 'AT-2291', invoice_date: '2024-05-12', total: 99 },
  ],
  [
    'document no',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Document No.    D-5521',
      'Document Date    2024-02-01',
      'Balance Due    55.20',
    ],
    { invoice_number: 'D-5521', invoice_date: '2024-02-01', total: 55.2 },
  ],
  [
    'next line',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Invoice Number',
      'INV-0099',
      'Invoice Date',
      '2024-02-01',
      'Total Due',
      '77.00',
    ],
    { invoice_number: 'INV-0099', invoice_date: '2024-02-01', total: 77 },
  ],
  [
    'your order',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Invoice #: 5',
      'Your Order No.: 4500012345',
      'Customer PO: PO-77',
    ],
    { invoice_number: '5', po_number: '4500012345' },
  ],
  [
    'order ref',
    ['Acme Tools Ltd', 'INVOICE', 'Invoice #: 5', 'Order Reference: PO-77'],
    { po_number: 'PO-77' },
  ],
  [
    'due variants',
    ['Acme Tools Ltd', 'INVOICE', 'Invoice #: 5', 'Date: 2024-02-01', 'Due on: 2024-03-01'],
    { due_date: '2024-03-01' },
  ],
  [
    'due receipt',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Invoice #: 5',
      'Date: 2024-02-01',
      'Payment Due Date: 2024-03-02',
    ],
    { due_date: '2024-03-02' },
  ],
  [
    'tax variants',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Sub-total    100.00',
      'VAT @ 20%    20.00',
      'Total (GBP)    120.00',
    ],
    { subtotal: 100, tax: 20, total: 120 },
  ],
  [
    'gst',
    [
      'Acme Tools Ltd',
      'TAX INVOICE',
      'Net Total    100.00',
      'GST 10%    10.00',
      'Total Inc. GST    110.00',
    ],
    { subtotal: 100, tax: 10, total: 110 },
  ],
  [
    'goods value',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Goods value    100.00',
      'Tax    7.00',
      'Invoice total    107.00',
    ],
    { subtotal: 100, tax: 7, total: 107 },
  ],
  [
    'spaced letterhead without its word gap, spelled under the signature',
    [
      'C O B A L T C L O U D',
      '12 Market Street',
      'INVOICE',
      'Invoice #: 5',
      'Thank you for your business.',
      'Yours sincerely,',
      'Ana Ortega',
      'Cobalt Cloud',
    ],
    { vendor_name: 'Cobalt Cloud' },
  ],
  [
    'spaced letterhead',
    ['A C M E   T O O L S   L T D', '12 Market Street', 'INVOICE', 'Invoice #: 5'],
    { vendor_name: 'Acme Tools Ltd' },
  ],
  [
    'billed to next line',
    [
      'Acme Tools Ltd',
      'INVOICE',
      'Invoice #: 5',
      'Billed To:',
      'Globex Corporation',
      '1 Main Street',
    ],
    { customer_name: 'Globex Corporation' },
  ],
  [
    'customer label',
    ['Acme Tools Ltd', 'INVOICE', 'Invoice #: 5', 'Customer    Globex Corporation'],
    { customer_name: 'Globex Corporation' },
  ],
  [
    'sold to',
    ['Acme Tools Ltd', 'INVOICE', 'Invoice #: 5', 'Sold To: Globex Corporation'],
    { customer_name: 'Globex Corporation' },
  ],
  [
    'amount due caps',
    [
      'ACME TOOLS LTD',
      'INVOICE',
      'INVOICE NO: 5',
      'INVOICE DATE: 01/02/2024',
      'AMOUNT DUE: $1,234.50',
    ],
    { invoice_number: '5', total: 1234.5, vendor_name: 'Acme Tools Ltd' },
  ],
  [
    'invoice number with hash no space',
    ['Acme Tools Ltd', 'INVOICE #INV-3321', 'Date 01/02/2024'],
    { invoice_number: 'INV-3321' },
  ],
  [
    'invoice no inline title',
    ['Acme Tools Ltd', 'Invoice INV-3321', 'Date 01/02/2024'],
    { invoice_number: 'INV-3321' },
  ],
  [
    'remit',
    ['Acme Tools Ltd', 'INVOICE', 'Invoice Number: 5', 'Total amount due (USD): 300.00'],
    { total: 300 },
  ],
];

const receipt = {
  merchant_name: str('The shop'),
  receipt_number: str(),
  date: date(),
  total: num('The amount paid'),
  tax: num(),
  payment_method: str(),
};
const po = {
  po_number: str('The purchase order number'),
  order_date: date(),
  buyer_name: str('The company placing the order'),
  vendor_name: str('The supplier the order is sent to'),
  delivery_date: date(),
  total: num(),
};
const stmt = {
  bank_name: str(),
  account_number: str(),
  account_holder: str(),
  period_start: date(),
  period_end: date(),
  opening_balance: num(),
  closing_balance: num(),
};
const letter = {
  sender_name: str('The person who signed'),
  sender_organization: str('The organisation the letter comes from'),
  recipient_name: str('The person the letter is addressed to'),
  date: date(),
  subject: str(),
};

const otherCases: [string, object, string[], Record<string, unknown>][] = [
  [
    'rcpt sale no',
    receipt,
    [
      'CORNER MARKET',
      '14 High St',
      'Sale No. 88213',
      '03/04/2024 09:41',
      'Coffee    3.50',
      'TOTAL    3.50',
      'VISA ****1150',
    ],
    { receipt_number: '88213', date: '2024-03-04', total: 3.5 },
  ],
  [
    'rcpt invoice',
    receipt,
    [
      'Corner Market',
      'Receipt No: R-2291',
      'Date: 2024-04-03',
      'Subtotal 3.00',
      'Sales tax 0.25',
      'Total paid 3.25',
      'Payment: Card',
    ],
    { receipt_number: 'R-2291', total: 3.25, tax: 0.25 },
  ],
  [
    'rcpt amount',
    receipt,
    [
      'Corner Market',
      'Order # 7781',
      'Apr 3, 2024 10:12 AM',
      'Latte    4.50',
      'Amount    4.50',
      'Mastercard    4.50',
    ],
    { receipt_number: '7781', date: '2024-04-03', total: 4.5 },
  ],
  [
    'po',
    po,
    [
      'Globex Corporation',
      'PURCHASE ORDER',
      'P.O. Number: 4500012345',
      'Order Date: 2024-04-03',
      'Supplier: Acme Tools Ltd',
      'Deliver by: 2024-04-20',
      'Order Total: 1,200.00',
    ],
    {
      po_number: '4500012345',
      order_date: '2024-04-03',
      vendor_name: 'Acme Tools Ltd',
      delivery_date: '2024-04-20',
      total: 1200,
    },
  ],
  [
    'po2',
    po,
    [
      'GLOBEX CORPORATION',
      'Purchase Order',
      'PO#    PO-7781',
      'Date Issued    2024-04-03',
      'Vendor    Acme Tools Ltd',
      'Required Date    2024-04-20',
      'Total    1,200.00',
    ],
    {
      po_number: 'PO-7781',
      order_date: '2024-04-03',
      vendor_name: 'Acme Tools Ltd',
      buyer_name: 'Globex Corporation',
      delivery_date: '2024-04-20',
      total: 1200,
    },
  ],
  [
    'stmt',
    stmt,
    [
      'Northern Trust Bank',
      'Statement of Account',
      'Account holder: Maria Lopez',
      'Account No: 12-34-5678',
      'Statement period: 1 Mar - 31 Mar 2024',
      'Balance at start of period    1,000.00',
      'Balance at end of period    1,250.00',
    ],
    {
      bank_name: 'Northern Trust Bank',
      account_number: '12-34-5678',
      account_holder: 'Maria Lopez',
      period_start: '2024-03-01',
      period_end: '2024-03-31',
      opening_balance: 1000,
      closing_balance: 1250,
    },
  ],
  [
    'stmt2',
    stmt,
    [
      'N O R T H E R N   T R U S T   B A N K',
      'Customer: Maria Lopez',
      'IBAN: GB29 NWBK 6016 1331 9268 19',
      'From 01/03/2024 to 31/03/2024',
      'Opening    1,000.00',
      'Closing    1,250.00',
    ],
    {
      bank_name: 'Northern Trust Bank',
      account_number: 'GB29 NWBK 6016 1331 9268 19',
      account_holder: 'Maria Lopez',
      period_start: '2024-03-01',
      period_end: '2024-03-31',
      opening_balance: 1000,
      closing_balance: 1250,
    },
  ],
  [
    "a spreadsheet's default sheet name heading the reading is no party",
    stmt,
    [
      'Sheet',
      'First Harbor Bank',
      '88 King Street West, 75011 Paris',
      'Account ID: 12345678',
      'Ingrid Rossi',
      '77 Harbor Road',
      '10115 Berlin',
    ],
    { bank_name: 'First Harbor Bank', account_holder: 'Ingrid Rossi' },
  ],
  [
    'letter',
    letter,
    [
      'Northwind Legal LLP',
      '3 Court Lane',
      'London EC1 2AB',
      '12 March 2024',
      'Ms. Ana Ortega',
      '7 Elm Road',
      'Leeds LS1 4AP',
      'Re: Lease renewal',
      'Dear Ms. Ortega,',
      'We write about the renewal of your lease.',
      'Yours sincerely,',
      'Daniel Brooks',
      'Partner',
      'Northwind Legal LLP',
    ],
    {
      sender_name: 'Daniel Brooks',
      sender_organization: 'Northwind Legal LLP',
      recipient_name: 'Ana Ortega',
      date: '2024-03-12',
      subject: 'Lease renewal',
    },
  ],
  [
    'letter2',
    letter,
    [
      'NORTHWIND LEGAL LLP',
      '12th March 2024',
      'Dr Ana Ortega',
      '7 Elm Road',
      'Leeds LS1 4AP',
      'LEASE RENEWAL',
      'Dear Dr Ortega',
      'We write about the renewal of your lease.',
      'Best regards',
      'Daniel Brooks',
    ],
    {
      sender_name: 'Daniel Brooks',
      sender_organization: 'Northwind Legal LLP',
      recipient_name: 'Ana Ortega',
      date: '2024-03-12',
      subject: 'LEASE RENEWAL',
    },
  ],
];

describe('invoice labels in other words', () => {
  it.each(invoiceCases)('%s', (_name, lines, expected) => {
    expect(picked(extract(lines, invoice), expected)).toEqual(expected);
  });
});

describe('receipts, orders, statements and letters in other words', () => {
  it.each(otherCases)('%s', (_name, schema, lines, expected) => {
    expect(picked(extract(lines, schema), expected)).toEqual(expected);
  });
});

describe('line items asked in other words', () => {
  const figure = (d?: string) => num(d);
  const itemsOf = (props: Record<string, unknown>) => ({
    lines: { type: 'array', items: { type: 'object', properties: props } },
  });
  const till = [
    'Corner Market',
    'Qty    Item / Service    Total',
    '1    Bananas    12.32',
    '2    Milk    3.10',
    'Subtotal    15.42',
  ];
  const invoiceLines = [
    'Acme Tools Ltd',
    'INVOICE',
    'Description    Qty    Unit Price    Line Total',
    'Paper A4    2    4.50    9.00',
    'Toner    1    60.00    60.00',
    'Total    69.00',
  ];
  const slip = ['Corner Market', 'Bananas    12.32', 'Milk    3.10', 'Total    15.42'];
  const cases: [string, string[], Record<string, unknown>, Record<string, unknown>[]][] = [
    [
      'a header names each column by another word than the property',
      till,
      { article: str(), pieces: figure('How many were bought'), charged: figure('The line total') },
      [
        { article: 'Bananas', pieces: 1, charged: 12.32 },
        { article: 'Milk', pieces: 2, charged: 3.1 },
      ],
    ],
    [
      'names that say nothing, descriptions that do',
      till,
      { what: str('What was bought'), howMany: figure('How many'), sum: figure() },
      [
        { what: 'Bananas', howMany: 1, sum: 12.32 },
        { what: 'Milk', howMany: 2, sum: 3.1 },
      ],
    ],
    [
      "an extended price, described as the quantity times the rate, is the line's total",
      invoiceLines,
      { text: str(), units: figure(), rate: figure(), extended: figure('Quantity times rate') },
      [
        { text: 'Paper A4', units: 2, rate: 4.5, extended: 9 },
        { text: 'Toner', units: 1, rate: 60, extended: 60 },
      ],
    ],
    [
      'a till slip without a header, asked for a label and a value',
      slip,
      { label: str(), value: figure() },
      [
        { label: 'Bananas', value: 12.32 },
        { label: 'Milk', value: 3.1 },
      ],
    ],
  ];
  it.each(cases)('%s', (_name, lines, props, expected) => {
    expect(extract(lines, itemsOf(props)).lines).toEqual(expected);
  });
});

describe('signed amounts of a statement asked in other words', () => {
  it.each(['Money in or out; negative for withdrawals', 'Money in or out; positive for deposits'])(
    'reads withdrawals and deposits as one signed amount when the amount is described by one side (%s)',
    (description) => {
      // Columns aligned as a layout parser sets them: an empty side stays empty.
      const row = (cells: readonly string[]) =>
        cells.map((c, i) => c.padEnd([14, 32, 14, 12, 10][i] ?? 10)).join('');
      const lines = [
        'Harbor Bank',
        'Account Statement',
        row(['Date', 'Description', 'Withdrawals', 'Deposits', 'Balance']),
        row(['15/07/2024', 'Online transfer to SAVINGS', '389.21', '', '5,125.79']),
        row(['16/07/2024', 'Salary ACME CORP', '', '2,000.00', '7,125.79']),
      ];
      const entries = {
        entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              day: date(),
              text: str(),
              amount: num(description),
            },
          },
        },
      };
      expect(extract(lines, entries).entries).toEqual([
        { day: '2024-07-15', text: 'Online transfer to SAVINGS', amount: -389.21 },
        { day: '2024-07-16', text: 'Salary ACME CORP', amount: 2000 },
      ]);
    },
  );
});

describe('statement rows as other banks print them', () => {
  const row = (cells: readonly string[]) =>
    cells.map((c, i) => c.padEnd([10, 34, 16, 14][i] ?? 10)).join('');
  const entries = {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          date: date(),
          description: str(),
          amount: num('Negative for money out'),
          balance: num(),
        },
      },
    },
  };

  it('gives dates without their year the year of the statement, nearest to its dates', () => {
    const lines = [
      'Harbor Bank',
      'Statement period 20/12/2024 - 19/01/2025',
      row(['Date', 'Description', 'Amount', 'Balance']),
      row(['28 Dec', 'Card payment RESTAURANT', '-43.45', '3,748.80']),
      row(['02 Jan', 'Salary ACME CORP', '2,000.00', '5,748.80']),
    ];
    expect(extract(lines, entries).entries).toEqual([
      {
        date: '2024-12-28',
        description: 'Card payment RESTAURANT',
        amount: -43.45,
        balance: 3748.8,
      },
      { date: '2025-01-02', description: 'Salary ACME CORP', amount: 2000, balance: 5748.8 },
    ]);
  });

  it('signs figures by the CR or DR after them when the table has both', () => {
    const lines = [
      'Harbor Bank',
      'Statement period 01/10/2024 - 31/10/2024',
      row(['Date', 'Description', 'Amount', 'Balance']),
      row(['Oct 1', 'Card payment ONLINE STORE', '178.25 DR', '7,569.14 CR']),
      row(['Oct 6', 'Transfer from J SMITH', '433.75 CR', '8,002.89 CR']),
    ];
    expect(extract(lines, entries).entries).toEqual([
      {
        date: '2024-10-01',
        description: 'Card payment ONLINE STORE',
        amount: -178.25,
        balance: 7569.14,
      },
      {
        date: '2024-10-06',
        description: 'Transfer from J SMITH',
        amount: 433.75,
        balance: 8002.89,
      },
    ]);
  });
});

describe('order lines with part numbers, units and tax rates', () => {
  const row = (cells: readonly string[], widths: readonly number[]) =>
    cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join('');
  const lines = {
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: str(),
          quantity: num(),
          unit_price: num(),
          amount: num(),
        },
      },
    },
  };

  it('takes the description from the column of words, not from a column of codes headed Item', () => {
    const w = [10, 30, 8, 12, 10];
    const got = extract(
      [
        'Juniper Office Products',
        'PURCHASE ORDER',
        row(['Item', 'Description', 'Qty', 'Unit Price', 'Amount'], w),
        row(['PN-93604', 'Shipping & handling', '4', '199.26', '797.04'], w),
        row(['SKU48213', 'Office chair, mesh', '2', '144.32', '288.64'], w),
      ],
      lines,
    );
    expect(got.line_items).toEqual([
      { description: 'Shipping & handling', quantity: 4, unit_price: 199.26, amount: 797.04 },
      { description: 'Office chair, mesh', quantity: 2, unit_price: 144.32, amount: 288.64 },
    ]);
  });

  it('reads no amount from a column of tax rates whose header names a rate', () => {
    const w = [6, 28, 8, 12, 10, 12];
    const got = extract(
      [
        'Meridian Textiles Ltd.',
        'Purchase Order',
        row(['Line', 'Item / Service', 'Qty', 'Unit Rate', 'Tax rate', 'Net'], w),
        row(['1', 'Cable ties, 100 pack', '6', '103.36', '10%', '620.16'], w),
        row(['2', 'Steel bracket 40mm', '25', '61.55', '10%', '1,538.75'], w),
      ],
      lines,
    );
    expect(got.line_items).toEqual([
      { description: 'Cable ties, 100 pack', quantity: 6, unit_price: 103.36, amount: 620.16 },
      { description: 'Steel bracket 40mm', quantity: 25, unit_price: 61.55, amount: 1538.75 },
    ]);
  });
});

describe('till receipts in more shapes', () => {
  const items = {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: str(), quantity: num(), amount: num() },
      },
    },
  };
  const receipt = (body: readonly string[]) =>
    extract(['Corner Market', '2024-04-10 10:41', ...body, 'Subtotal    40.00'], items).items;

  it('reads a weight at a price per kilogram under the name, and a tax code after the amount', () => {
    expect(
      receipt([
        'Bananas',
        '0.784 kg @ 1.62/kg    1.27 A',
        'Bagel',
        '2 x 0.59    1.18    C',
        'Croissant    2.50    B',
        'Cheddar',
        '1,113 kg @ 3,95/kg    4,40 A',
      ]),
    ).toEqual([
      { description: 'Bananas', quantity: 0.784, amount: 1.27 },
      { description: 'Bagel', quantity: 2, amount: 1.18 },
      { description: 'Croissant', quantity: 1, amount: 2.5 },
      { description: 'Cheddar', quantity: 1.113, amount: 4.4 },
    ]);
  });

  it('joins a name wrapped onto two lines over its count line, after the first item', () => {
    expect(
      receipt([
        'Croissant    2.50',
        'Free range large eggs',
        'box of twelve',
        '6 x 4.19    25.14',
        'Bagel    1.18',
      ]),
    ).toEqual([
      { description: 'Croissant', quantity: 1, amount: 2.5 },
      { description: 'Free range large eggs box of twelve', quantity: 6, amount: 25.14 },
      { description: 'Bagel', quantity: 1, amount: 1.18 },
    ]);
  });

  it('keeps a list with a count column going over discount lines (no items) and a name wrapped around its amount', () => {
    expect(
      receipt([
        'Cappuccino    4    17.88 C',
        'Phone charger    1    6.08 A',
        'Discount    -2.70',
        'Coffee    5    4.10 C',
        'Organic Greek style',
        '10.46 A',
        'natural yoghurt 500g 1',
        'Sandwich    1    13.48 A',
      ]),
    ).toEqual([
      { description: 'Cappuccino', quantity: 4, amount: 17.88 },
      { description: 'Phone charger', quantity: 1, amount: 6.08 },
      { description: 'Coffee', quantity: 5, amount: 4.1 },
      { description: 'Sandwich', quantity: 1, amount: 13.48 },
    ]);
  });

  it('splits a weight with its unit from the name, and takes the total, not the price, as the amount', () => {
    expect(
      extract(
        [
          'Corner Market',
          'QTY ITEM    PRICE    TOTAL',
          '0.228 kg Tomatoes on the vine    9.32/kg    2.12',
          '1 Coffee    1.32    1.32',
          '2 Pens 10 pack    8.88    17.76',
          'Subtotal    21.20',
        ],
        items,
      ).items,
    ).toEqual([
      { description: 'Tomatoes on the vine', quantity: 0.228, amount: 2.12 },
      { description: 'Coffee', quantity: 1, amount: 1.32 },
      { description: 'Pens 10 pack', quantity: 2, amount: 17.76 },
    ]);
  });
});

describe('a statement table that goes on over a page', () => {
  const row = (cells: readonly string[]) =>
    cells.map((c, i) => c.padEnd([12, 34, 14, 14][i] ?? 10)).join('');
  const entries = {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: { date: date(), description: str(), amount: num(), balance: num() },
      },
    },
  };
  const first = [
    'Harbor Bank',
    'Account Statement',
    row(['Date', 'Description', 'Amount', 'Balance']),
    row(['2024-04-01', 'Card payment RESTAURANT', '-43.45', '3,748.80']),
    row(['2024-04-08', 'Direct debit TELECOM', '-140.19', '3,608.61']),
  ];
  const more = [
    row(['2024-04-24', 'Standing order RENT', '-434.46', '3,174.15']),
    row(['2024-04-25', 'Salary ACME CORP', '2,000.00', '5,174.15']),
  ];
  const expected = [
    { date: '2024-04-01', description: 'Card payment RESTAURANT', amount: -43.45, balance: 3748.8 },
    { date: '2024-04-08', description: 'Direct debit TELECOM', amount: -140.19, balance: 3608.61 },
    { date: '2024-04-24', description: 'Standing order RENT', amount: -434.46, balance: 3174.15 },
    { date: '2024-04-25', description: 'Salary ACME CORP', amount: 2000, balance: 5174.15 },
  ];
  const pages = (second: readonly string[]) => {
    const view = buildDocumentView([
      { output: textToParseOutput([first.join('\n'), second.join('\n')]) },
    ]);
    return offlineExtract(view, { type: 'object', properties: entries as never }).value.entries;
  };

  it('reads the rows of a later page that has no header of its own', () => {
    expect(pages(more)).toEqual(expected);
  });

  it('reads them under a repeated header with a line carried over from the page before', () => {
    expect(
      pages([row(['Date', 'Description', 'Amount', 'Balance']), 'REF 4839201', ...more]),
    ).toEqual(expected);
  });
});

describe('a transaction whose description goes on in a line of its own', () => {
  it('adds the line to the description of the row above it', () => {
    const row = (cells: readonly string[]) =>
      cells.map((c, i) => c.padEnd([12, 34, 14, 14][i] ?? 10)).join('');
    const got = extract(
      [
        'Harbor Bank',
        'Account Statement',
        row(['Date', 'Description', 'Amount', 'Balance']),
        row(['2024-04-01', 'Card payment RESTAURANT', '-43.45', '3,748.80']),
        row(['2024-04-07', 'Standing order RENT', '-508.89', '3,239.91']),
        `${' '.repeat(12)}BERLIN DE`,
        row(['2024-04-08', 'Salary ACME CORP', '2,029.51', '5,269.42']),
      ],
      {
        entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: { date: date(), description: str(), amount: num(), balance: num() },
          },
        },
      },
    );
    expect(got.entries).toEqual([
      {
        date: '2024-04-01',
        description: 'Card payment RESTAURANT',
        amount: -43.45,
        balance: 3748.8,
      },
      {
        date: '2024-04-07',
        description: 'Standing order RENT BERLIN DE',
        amount: -508.89,
        balance: 3239.91,
      },
      { date: '2024-04-08', description: 'Salary ACME CORP', amount: 2029.51, balance: 5269.42 },
    ]);
  });
});
