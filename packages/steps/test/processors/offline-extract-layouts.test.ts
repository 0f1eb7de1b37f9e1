/**
 * Offline extraction on layouts and wordings the evaluation corpus does not have: labels that
 * name a total or a party by another word, identifiers of parties that are not the document's,
 * letterheads that end at their contact line, letters whose sender is named only under the
 * signature, names that contain a street word, address blocks with unusual first lines. Inputs
 * are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import { blocksPage } from '../fixtures/view/blocks-page.ts';

const str = (description?: string) => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
});
const num = { type: ['number', 'null'] };
const date = (description?: string) => ({ ...str(description), format: 'date' });

function extract(text: string | readonly string[], properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput(text) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('labels by other words', () => {
  it('reads a request to pay, a bare balance and a billing address as the total and the customer', () => {
    const invoice = extract(
      [
        'Norrland Timber AB',
        'Billing address: Fjord Outdoor Oy',
        'Net    1,200.00',
        'Please pay    1,500.00',
      ].join('\n'),
      { customer: str(), subtotal: num, total_amount: num },
    );
    expect(invoice).toEqual({ customer: 'Fjord Outdoor Oy', subtotal: 1200, total_amount: 1500 });
    const receipt = extract(['Kiosk 24', 'Subtotal    8.00', 'BALANCE    9.20'].join('\n'), {
      total: num,
    });
    expect(receipt).toEqual({ total: 9.2 });
    // A statement's closing balance still takes "Balance": the total family is the total's.
    const statement = extract(['Balance    310.00'].join('\n'), { closing_balance: num });
    expect(statement).toEqual({ closing_balance: 310 });
  });

  it("never takes a party's identifier for the document's number by elimination", () => {
    const value = extract(
      ['INVOICE', 'Customer ID    K-5521', 'VAT number    SE5560001', 'Date    2024-05-02'].join(
        '\n',
      ),
      { po_number: str('The purchase order number') },
    );
    expect(value).toEqual({ po_number: null });
  });
});

describe('letterheads and signatures', () => {
  it("takes the sender's organisation from the signature when the letterhead block holds no name", () => {
    // The letterhead is a contact strip only (a producer dropped the logo and the name); the
    // inside address names the addressee's company with a legal form; the close ends page 1
    // and the signature opens page 2.
    const value = extract(
      [
        [
          '5 Quay Lane, Cork T12 X8Y2 | www.example.ie | +353 21 555 0101',
          '',
          'Dr. Aoife Brennan',
          'Procurement Lead',
          'Harbour Biotech Ltd',
          'Unit 7, Marina Commercial Park',
          'Cork T12 AB34',
          '',
          'Dear Dr. Brennan,',
          'We confirm the delivery schedule discussed last week.',
          '',
          'Kind regards,',
        ].join('\n'),
        ['Tomasz Wiśniewski', 'Head of Logistics', 'Baltic Freight Services'].join('\n'),
      ],
      {
        sender_name: str('The person who signed the letter'),
        sender_organization: str('The organisation the letter comes from'),
        recipient: str('The person the letter is addressed to'),
      },
    );
    expect(value).toEqual({
      sender_name: 'Tomasz Wiśniewski',
      sender_organization: 'Baltic Freight Services',
      recipient: 'Aoife Brennan',
    });
  });

  it('reads a name with a street word as a name, and no label beside its value as a letterhead', () => {
    // A tall row "Time    17:14" beside a smaller shop name: the label is not the shop.
    const output = blocksPage([
      { text: 'Elm Street Bakery', box: [40, 20, 150, 32] },
      { text: '14 Elm Street', box: [40, 34, 120, 44] },
      { text: 'Time', box: [40, 60, 70, 80] },
      { text: '17:14', box: [200, 60, 240, 80] },
      { text: 'Total    6.40', box: [40, 90, 240, 100] },
    ]);
    const view = buildDocumentView([{ output }]);
    const value = offlineExtract(view, {
      type: 'object',
      properties: { store: str('Name of the shop'), total: num },
    }).value;
    expect(value).toEqual({ store: 'Elm Street Bakery', total: 6.4 });
  });

  it('reads a letterhead set large on two lines as one name, whichever line scores best', () => {
    const page = (first: string, second: string) =>
      blocksPage([
        { text: first, box: [40, 20, 160, 38] },
        { text: second, box: [40, 40, 200, 58] },
        { text: '1550 Commerce Blvd, Austin, TX 78701', box: [40, 64, 240, 74] },
        { text: 'STATEMENT OF ACCOUNT', box: [40, 90, 200, 100] },
        { text: 'Customer: Daniel Garcia', box: [40, 104, 200, 114] },
        { text: 'Account ID: 89398388', box: [40, 118, 200, 128] },
      ]);
    const bank = (first: string, second: string) =>
      offlineExtract(buildDocumentView([{ output: page(first, second) }]), {
        type: 'object',
        properties: { bank_name: str() },
      }).value;
    expect(bank('Alpine', 'Kantonalbank')).toEqual({ bank_name: 'Alpine Kantonalbank' });
    expect(bank('Lakeside', 'Medical Supplies')).toEqual({
      bank_name: 'Lakeside Medical Supplies',
    });
    // At body size, wrapped in a narrow cell at the top of the page: the lines touch.
    const wrapped = blocksPage([
      { text: 'Alpine', box: [90, 41, 120, 48] },
      { text: 'Kantonalbank', box: [90, 48, 150, 55] },
      { text: '1550 Commerce Blvd, Austin, TX 78701', box: [70, 57, 260, 64] },
      { text: 'STATEMENT OF ACCOUNT', box: [41, 66, 200, 76] },
      { text: 'Customer: Daniel Garcia', box: [41, 79, 200, 87] },
      { text: 'Account ID: 89398388', box: [41, 87, 200, 96] },
    ]);
    expect(
      offlineExtract(buildDocumentView([{ output: wrapped }]), {
        type: 'object',
        properties: { bank_name: str(), account_holder: str() },
      }).value,
    ).toEqual({ bank_name: 'Alpine Kantonalbank', account_holder: 'Daniel Garcia' });
  });

  it('takes no column header for a letterhead beside label/value pairs', () => {
    const value = extract(
      [
        '44 Canal Road',
        'Ghent 9000',
        'Qty    Article    Price',
        '2    Waffles    7.00',
        'Total    7.00',
      ].join('\n'),
      { merchant_name: str('The store that issued the receipt') },
    );
    expect(value).toEqual({ merchant_name: null });
  });

  it('finds an account holder over an address whose first line has no street word', () => {
    const value = extract(
      [
        'Hanse Sparkasse',
        'Postfach 1140, 20095 Hamburg',
        'www.hanse-sparkasse.example',
        '',
        'Greta Lindholm',
        'Flat 3, Rosebank Court',
        'Edinburgh EH3 9QG',
        '',
        'Account statement',
        'Opening balance    1,020.00',
      ].join('\n'),
      { bank_name: str('The bank that issued the statement'), account_holder: str() },
    );
    expect(value).toEqual({ bank_name: 'Hanse Sparkasse', account_holder: 'Greta Lindholm' });
  });
});

describe('one invoice in six layouts and three wordings', () => {
  // The same fields set as "Label: value", "Label    value", label over value, a row of labels
  // over a row of values, "Label value" one space apart, and "Label:    value"; each wording
  // names every field differently; two schemas ask for them.
  const wordings = [
    ['Invoice No.', 'Invoice Date', 'Due Date', 'PO Number', 'Subtotal', 'VAT', 'Total'],
    ['Inv. No', 'Date of issue', 'Pay by', 'Your order', 'Net', 'GST', 'Amount payable'],
    [
      'Document No.',
      'Issued',
      'Payment due',
      'Customer PO',
      'Total net',
      'Total VAT',
      'Total incl. VAT',
    ],
  ] as const;
  const values = [
    'A-20931',
    '14 March 2024',
    '13 April 2024',
    'PO-7731',
    '1,000.00',
    '200.00',
    '1,200.00',
  ];
  const truth = ['A-20931', '2024-03-14', '2024-04-13', 'PO-7731', 1000, 200, 1200];
  const schemas = [
    {
      invoice_number: str('The invoice number'),
      invoice_date: date('The date the invoice was issued'),
      due_date: date('The date payment is due'),
      po_number: str('The purchase order number the invoice refers to'),
      subtotal: num,
      tax: num,
      total: num,
    },
    {
      invoiceId: str('Identifier of the invoice'),
      issueDate: date(),
      paymentDueDate: date(),
      purchaseOrderReference: str("The buyer's order reference"),
      netAmount: num,
      taxAmount: num,
      amountDue: num,
    },
  ];
  const layouts: ((labels: readonly string[]) => string[])[] = [
    (l) => l.map((label, i) => `${label}: ${values[i]}`),
    (l) => l.map((label, i) => `${label}    ${values[i]}`),
    (l) =>
      l.flatMap((label, i) =>
        i < 4 ? [label, values[i] as string] : [`${label}    ${values[i]}`],
      ),
    (l) => {
      const top = [0, 1, 2, 3];
      const width = top.map(
        (i) => Math.max((l[i] as string).length, (values[i] as string).length) + 4,
      );
      const row = (texts: readonly string[]) =>
        top
          .map((i) => (texts[i] as string).padEnd(width[i] as number))
          .join('')
          .trimEnd();
      return [row(l), row(values), ...[4, 5, 6].map((i) => `${l[i]}    ${values[i]}`)];
    },
    (l) => l.map((label, i) => `${label} ${values[i]}`),
    (l) => l.map((label, i) => `${label}:    ${values[i]}`),
  ];
  it.each(layouts.map((layout, n) => [n, layout] as const))('layout %i', (_, layout) => {
    for (const labels of wordings) {
      const lines = layout(labels);
      const text = [
        'Fernwood Instruments GmbH',
        'Lindenallee 4',
        '50667 Köln',
        '',
        'INVOICE',
        ...lines.slice(0, -3),
        '',
        'Description    Qty    Price    Amount',
        'Widget    2    500.00    1,000.00',
        '',
        ...lines.slice(-3),
      ].join('\n');
      for (const schema of schemas) {
        const value = extract(text, schema);
        expect({ labels, value: Object.values(value) }).toEqual({ labels, value: truth });
      }
    }
  });
});

describe('parties by the side the schema describes', () => {
  it("reads a purchase order's buyer as its letterhead and the vendor from the block under 'To:'", () => {
    const text = [
      'Brightline Components Ltd',
      '8 Mill Road',
      'Bristol BS1 4DJ',
      'Tel +44 117 555 0199',
      '',
      'PURCHASE ORDER',
      'Order No.    PO-4410',
      'Need by    20 June 2024',
      '',
      'To:',
      'Osaka Precision KK',
      '3-1 Umeda, Kita-ku',
      '',
      'Item    Qty    Unit Price    Amount',
      'Bearing 6204    10    12.00    120.00',
    ].join('\n');
    // The name says "buyer" (a customer elsewhere), the description that it placed the order.
    const value = extract(text, {
      buyer: str('The company placing the order'),
      vendor_name: str('The supplier the order is sent to'),
      delivery_date: date(),
    });
    expect(value).toEqual({
      buyer: 'Brightline Components Ltd',
      vendor_name: 'Osaka Precision KK',
      delivery_date: '2024-06-20',
    });
  });

  it("reads an IBAN as the account's number", () => {
    const value = extract(
      ['Nordic Savings Bank', 'IBAN    SE45 5000 0000 0583 9825 7466'].join('\n'),
      {
        account_number: str(),
      },
    );
    expect(value).toEqual({ account_number: 'SE45 5000 0000 0583 9825 7466' });
  });
});

describe('receipts and letters in other wordings', () => {
  it('reads a till receipt whose labels name its fields by other words', () => {
    const text = [
      '*** CORNER MARKET ***',
      'Store #112',
      '41 Elm Road',
      '',
      'Date/Time    2024-05-03 14:22',
      'Ticket    R-55120',
      '',
      'Milk 1L    2.49',
      'Coffee beans    15.51',
      '',
      'Items total    18.00',
      'Sales Tax 8.25%    1.49',
      'Total Sale    19.49',
    ].join('\n');
    const value = extract(text, {
      transactionId: str(),
      purchaseDate: date(),
      netTotal: num,
      salesTax: num,
      totalPaid: num,
    });
    expect(value).toEqual({
      transactionId: 'R-55120',
      purchaseDate: '2024-05-03',
      netTotal: 18,
      salesTax: 1.49,
      totalPaid: 19.49,
    });
  });

  it("reads a letter's subject from 'Ref:' before words, or from a capitals line above the salutation", () => {
    const letter = (subject: string) =>
      [
        'Halden Architects Ltd',
        '22 Quay Street, Glasgow G1 5AB',
        '',
        'Ref: QS/118',
        '',
        'Mr. Rui Costa',
        'Rua Augusta 100',
        '1100-053 Lisboa',
        '',
        subject,
        '',
        'Dear Mr. Costa,',
        'We are pleased to confirm the renewal.',
      ].join('\n');
    const schema = { topic: str('What the letter is about'), reference: str() };
    expect(extract(letter('Ref: Renewal of the maintenance contract'), schema)).toEqual({
      topic: 'Renewal of the maintenance contract',
      reference: 'QS/118',
    });
    expect(extract(letter('RENEWAL OF THE MAINTENANCE CONTRACT'), schema)).toEqual({
      topic: 'RENEWAL OF THE MAINTENANCE CONTRACT',
      reference: 'QS/118',
    });
  });
});

describe('bank statements in other layouts', () => {
  const schema = {
    institution: str('Name of the bank'),
    customerName: str('Owner of the account'),
    accountId: str('Account number or IBAN'),
    fromDate: date(),
    toDate: date(),
    startingBalance: num,
    endingBalance: num,
  };
  const truth = {
    institution: 'Nordic Savings Bank',
    customerName: 'Greta Lindholm',
    accountId: '4471229018',
    fromDate: '2024-05-01',
    toDate: '2024-05-31',
    startingBalance: 1020,
    endingBalance: 1380.5,
  };
  const transactions = [
    '',
    'Date    Description    Amount    Balance',
    '03/05/2024    Salary    400.00    1,420.00',
    '09/05/2024    Card payment    -39.50    1,380.50',
  ];
  it('reads the ends of a period from "From" and "To", the holder a statement is prepared for', () => {
    const text = [
      'Nordic Savings Bank',
      '',
      'Prepared for: Greta Lindholm',
      'Account: 4471229018',
      'From    01/05/2024',
      'To    31/05/2024',
      '',
      'Balance brought forward    1,020.00',
      'Balance carried forward    1,380.50',
      ...transactions,
    ].join('\n');
    expect(extract(text, schema)).toEqual(truth);
  });

  it('reads a period written after the word statement, and a bare "Name:" as the holder, not the bank', () => {
    const text = [
      'Nordic Savings Bank',
      '',
      'Name: Greta Lindholm',
      'Account No: 4471229018',
      'Statement from 1 May 2024 to 31 May 2024',
      '',
      'Start balance    1,020.00',
      'End balance    1,380.50',
      ...transactions,
    ].join('\n');
    expect(extract(text, schema)).toEqual(truth);
  });
});

describe('a due date from the payment terms', () => {
  it('adds the days of the terms to the date of the invoice when no label gives a due date', () => {
    const text = (terms: string) =>
      [
        'Meridian Cloud S.A.',
        'INVOICE',
        'Invoice Date    02-Aug-2024',
        'Total    90.00',
        terms,
      ].join('\n');
    const schema = { invoice_date: date(), due_date: date('The date payment is due') };
    expect(extract(text('Payment Terms: Net 45 days'), schema)).toEqual({
      invoice_date: '2024-08-02',
      due_date: '2024-09-16',
    });
    expect(extract(text('Payable within 30 days'), schema)).toEqual({
      invoice_date: '2024-08-02',
      due_date: '2024-09-01',
    });
    // A due date the document states wins; terms that give no days give none.
    expect(extract(`${text('Net 45')}\nDue Date    01-Sep-2024`, schema)).toEqual({
      invoice_date: '2024-08-02',
      due_date: '2024-09-01',
    });
    expect(extract(text('Payment on delivery'), schema)).toEqual({
      invoice_date: '2024-08-02',
      due_date: null,
    });
  });

  it("counts from the invoice's date, never from a period's start listed before it", () => {
    const value = extract(
      [
        'Meridian Cloud S.A.',
        'INVOICE',
        'Service period: 01/07/2024 - 31/07/2024',
        'Invoice Date: 02/08/2024',
        'Terms: Net 30',
      ].join('\n'),
      { serviceFrom: date(), serviceUntil: date(), invoice_date: date(), due_date: date() },
    );
    expect(value).toEqual({
      serviceFrom: '2024-07-01',
      serviceUntil: '2024-07-31',
      invoice_date: '2024-08-02',
      due_date: '2024-09-01',
    });
  });
});

describe('issuers named outside a letterhead', () => {
  const po = {
    po_number: str(),
    buyer: str('The company placing the order'),
    vendor_name: str('The supplier the order is sent to'),
  };
  const invoice = {
    vendor_name: str('The company that issued the invoice'),
    customer_name: str('The company billed'),
  };

  it('reads a letterhead whose name and address share a line, set apart by a dot', () => {
    expect(
      extract(
        [
          'Larkspur Tooling Inc. · 88 Foundry Lane, Sheffield',
          'PURCHASE ORDER',
          'PO Number: PO-4411',
          'Vendor: Castellano Imports GmbH',
        ].join('\n'),
        po,
      ),
    ).toEqual({
      po_number: 'PO-4411',
      buyer: 'Larkspur Tooling Inc.',
      vendor_name: 'Castellano Imports GmbH',
    });
  });

  it("reads 'Issued to' as the addressee and 'Issued by' as the issuer, two labels", () => {
    expect(
      extract(
        [
          'INVOICE',
          'Issued by: Meridian Office Products Inc.',
          'Issued to: Oakmont Logistics Ltd.',
        ].join('\n'),
        invoice,
      ),
    ).toEqual({
      vendor_name: 'Meridian Office Products Inc.',
      customer_name: 'Oakmont Logistics Ltd.',
    });
    expect(
      extract(
        ['LARKSPUR TOOLING INC.', 'Purchase Order', 'Issued to: Castellano Imports GmbH'].join(
          '\n',
        ),
        po,
      ),
    ).toMatchObject({ buyer: 'Larkspur Tooling Inc.', vendor_name: 'Castellano Imports GmbH' });
  });

  it('reads the issuer from a sentence that names it when no letterhead does', () => {
    const receipt = extract(
      [
        'RECEIPT 5521',
        'Milk    1.50',
        'TOTAL    1.50',
        'CASH    2.00',
        'Thank you for shopping at Fresh Basket Grocers!',
      ].join('\n'),
      { merchant_name: str('The store that issued the receipt') },
    );
    expect(receipt).toEqual({ merchant_name: 'Fresh Basket Grocers' });
    const cheque = extract(
      [
        'INVOICE',
        'Invoice No: 77',
        'Customer: Oakmont Logistics Ltd.',
        'Make cheques payable to Meridian Office Products Inc.',
      ].join('\n'),
      invoice,
    );
    expect(cheque).toEqual({
      vendor_name: 'Meridian Office Products Inc.',
      customer_name: 'Oakmont Logistics Ltd.',
    });
    // "Thank you for shopping with us" names nobody.
    expect(
      extract(['RECEIPT 5521', 'TOTAL    1.50', 'Thank you for shopping with us'].join('\n'), {
        merchant_name: str('The store that issued the receipt'),
      }),
    ).toEqual({ merchant_name: null });
  });

  it("reads the issuer from the footer's legal statement when no letterhead does", () => {
    const statement = extract(
      [
        'ACCOUNT STATEMENT',
        'John Smith',
        '4 Elm Road',
        'Leeds LS1 2AB',
        'Account number: 12345678',
        '',
        'Northwind Savings Bank plc is authorised by the Prudential Regulation Authority.',
      ].join('\n'),
      { bank_name: str('The bank that issued the statement'), account_holder: str() },
    );
    expect(statement).toEqual({
      bank_name: 'Northwind Savings Bank plc',
      account_holder: 'John Smith',
    });
  });
});

describe('statements with the holder at the right and balances dated', () => {
  const statement = {
    bank_name: str('The bank that issued the statement'),
    account_holder: str(),
    account_number: str(),
    opening_balance: num,
    closing_balance: num,
  };

  it('reads the holder from an address block in a right-hand column beside label/value pairs', () => {
    expect(
      extract(
        [
          'Northwind Savings Bank',
          '',
          'Account No.: 12345678                John Smith',
          'Period: 01/03/2024 - 31/03/2024      4 Elm Road',
          '                                     Leeds LS1 2AB',
        ].join('\n'),
        statement,
      ),
    ).toMatchObject({ account_holder: 'John Smith', account_number: '12345678' });
  });

  it('reads a balance whose label names its date ("Closing balance on 31 March 2024")', () => {
    expect(
      extract(
        [
          'Northwind Savings Bank',
          'John Smith',
          '4 Elm Road',
          'Leeds LS1 2AB',
          'Account summary',
          'Opening balance on 1 March 2024     1,000.00',
          'Money in                           500.00',
          'Closing balance as at 31/03/2024   1,300.00',
          'Balance on 31 March 2024 1,300.00',
        ].join('\n'),
        statement,
      ),
    ).toMatchObject({ opening_balance: 1000, closing_balance: 1300 });
  });
});

describe('a currency named away from the amounts', () => {
  const invoice = {
    total: num,
    currency: str('ISO 4217 currency code of the amounts'),
  };
  const lines = (extra: readonly string[]) =>
    ['INVOICE', 'Invoice No: 77', ...extra, 'Total    1,500.00'].join('\n');

  it("reads the currency a column's header or a sentence names when no amount does", () => {
    const cases: [readonly string[], string][] = [
      [['Description    Qty    Amount (EUR)', 'Site survey    1    1,500.00'], 'EUR'],
      [['All amounts in CAD.'], 'CAD'],
      [['Currency: GBP'], 'GBP'],
      [['Price ($)'], 'USD'],
    ];
    for (const [named, code] of cases) expect(extract(lines(named), invoice).currency).toBe(code);
  });

  it('names none when the document names none, or two', () => {
    expect(extract(lines(['Thank you for your custom']), invoice).currency).toBeNull();
    expect(extract(lines(['Prices in EUR, payable in GBP']), invoice).currency).toBeNull();
  });
});

describe('a window address beside the letterhead', () => {
  it('reads the issuer from the letterhead at the right and the holder from the address at the left', () => {
    const value = extract(
      [
        'John Smith                                  NORTHWIND SAVINGS BANK',
        '4 Elm Road                                  12 High Street',
        'Leeds LS1 2AB                               Leeds LS2 7EW',
        '',
        'STATEMENT OF ACCOUNT',
        'Account number: 12345678',
      ].join('\n'),
      { bank_name: str('The bank that issued the statement'), account_holder: str() },
    );
    expect(value).toEqual({ bank_name: 'Northwind Savings Bank', account_holder: 'John Smith' });
    // Without a legal form, the name that is no person's.
    const receipt = extract(
      [
        'Maria Lopez                                 The Corner Bakery',
        '4 Elm Road                                  12 Market Street',
        'Leeds LS1 2AB                               Leeds LS2 7EW',
        'Order 5521',
      ].join('\n'),
      { merchant_name: str('The store that issued the receipt'), customer: str('The customer') },
    );
    expect(receipt).toEqual({ merchant_name: 'The Corner Bakery', customer: 'Maria Lopez' });
    // A person's name with an honorific is still a person's.
    const titled = extract(
      [
        'Dr. Maria Lopez                             The Corner Bakery',
        '4 Elm Road                                  12 Market Street',
        'Leeds LS1 2AB                               Leeds LS2 7EW',
        'Order 5521',
      ].join('\n'),
      { merchant_name: str('The store that issued the receipt') },
    );
    expect(titled).toEqual({ merchant_name: 'The Corner Bakery' });
  });
});
