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
    { vendor_name: 'ACME TOOLS LTD' },
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
    { invoice_number: '5', total: 1234.5, vendor_name: 'ACME TOOLS LTD' },
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
      buyer_name: 'GLOBEX CORPORATION',
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
      bank_name: 'NORTHERN TRUST BANK',
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
      sender_organization: 'NORTHWIND LEGAL LLP',
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
