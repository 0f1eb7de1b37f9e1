/**
 * The document view finds labels and values wherever layouts put them, and tables whose layout
 * lost a narrow column or wrapped a header. Inputs are monospaced text pages
 * (`textToParseOutput`: 6 pt per character, 12 pt per line) and hand-placed blocks.
 */
import { describe, expect, it } from 'vitest';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentPage, DocumentTable } from '../../src/processors/view/document-view.ts';
import { tableFields } from '../../src/processors/view/label-values.ts';
import { relinePage } from '../../src/processors/view/reline-page.ts';
import { blocksPage } from '../fixtures/view/blocks-page.ts';

function page(text: string): DocumentPage {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return view.pages[0] as DocumentPage;
}

function fields(p: DocumentPage): Record<string, string> {
  return Object.fromEntries(p.fields.map((f) => [f.label, f.value]));
}

describe('label/value detection', () => {
  it('pairs a label with the next cell of its row, beside a letterhead on the same line', () => {
    const f = fields(
      page(
        [
          'Brightwater Imports Ltd        Invoice Number    INV-77',
          '3 Rue des Lilas                Due Date          12.05.2024',
        ].join('\n'),
      ),
    );
    expect(f['Invoice Number']).toBe('INV-77');
    expect(f['Due Date']).toBe('12.05.2024');
    expect(f['Brightwater Imports Ltd']).toBeUndefined();
  });

  it('pairs a colon-ended label with the next cell even when the value reads as a label', () => {
    // A name ("John Smith") has a label's shape; after "Customer Name:" it is its value, not a
    // second label of a row of labels over the next line.
    const f = fields(
      page(
        [
          'Northwind Savings Bank',
          'Customer Name:    John Smith',
          'Customer Address: 4 Elm Road, Leeds',
        ].join('\n'),
      ),
    );
    expect(f).toMatchObject({
      'Customer Name': 'John Smith',
      'Customer Address': '4 Elm Road, Leeds',
    });
  });

  it('pairs a row of labels with the one row of values under it', () => {
    const f = fields(
      page(
        [
          'Invoice No.    Issue date    P.O. #',
          'A-1021         03/02/2024    PO-8806',
          '',
          'Thanks',
        ].join('\n'),
      ),
    );
    expect(f).toMatchObject({
      'Invoice No.': 'A-1021',
      'Issue date': '03/02/2024',
      'P.O. #': 'PO-8806',
    });
  });

  it('takes no values from the column headers of a table', () => {
    const p = page(
      [
        'Description      Qty    Price    Total',
        'Laptop stand       5    58.86   294.30',
        'Site survey        1   120.00   120.00',
      ].join('\n'),
    );
    expect(p.fields.map((f) => f.label)).not.toContain('Total');
    expect(p.tables[0]?.rows).toHaveLength(2);
  });

  it('gives a label on its own line the value under it, never a label that has its own value', () => {
    const f = fields(
      page(
        [
          'Bill To',
          'Northwind Traders',
          '400 Industrial Way',
          '',
          'INVOICE',
          'Invoice #    77',
        ].join('\n'),
      ),
    );
    expect(f['Bill To']).toBe('Northwind Traders');
    expect(f.INVOICE).toBeUndefined();
  });

  it('reads a label and its amount one space apart on a line of their own', () => {
    const f = fields(
      page(
        [
          'Opening Balance USD 3,472.51',
          'Balance brought forward £1,654.04',
          'Shipping & handling 2',
          'Server rack 42U 142.06',
        ].join('\n'),
      ),
    );
    expect(f).toMatchObject({
      'Opening Balance': 'USD 3,472.51',
      'Balance brought forward': '£1,654.04',
    });
    // A count is no amount; a code is no label's word.
    expect(f['Shipping & handling']).toBeUndefined();
    expect(f['Server rack 42U']).toBeUndefined();
    expect(f['Server rack']).toBeUndefined();
  });

  it('never gives a lone label above a row of labels one of those labels as its value', () => {
    const f = fields(
      page(
        [
          'INVOICE',
          'Invoice Number    Invoice Date    P.O. #',
          'A-1021            03/02/2024      PO-8806',
          '',
          'Vendor                  Ship To',
          'Vandelay Industries     Northwind Traders',
          '88 King Street West     221 Baker Street',
        ].join('\n'),
      ),
    );
    expect(f.INVOICE).toBeUndefined();
    expect(f['Invoice Number']).toBe('A-1021');
    // Names under a row of labels are its values, though they read as labels themselves.
    expect(f.Vendor).toBe('Vandelay Industries');
  });

  it('pairs labels over values beside an address column, and a header row over its values', () => {
    const f = fields(
      page(
        [
          'Account Name            Acct #',
          'Sofia Nakamura          80654990',
          '77 Harbor Road          For the period',
          'Springfield, IL 62701   01-Jan-2022 to 31-Jan-2022',
          '',
          'Beginning Balance',
          "CHF 3'494.00",
        ].join('\n'),
      ),
    );
    expect(f['Account Name']).toBe('Sofia Nakamura');
    expect(f['Acct #']).toBe('80654990');
    // The name under a header is its value, not a label of the number beside it.
    expect(f['Sofia Nakamura']).toBeUndefined();
    expect(f['For the period']).toBe('01-Jan-2022 to 31-Jan-2022');
    // A currency code before an amount is no label of it.
    expect(f.CHF).toBeUndefined();
    expect(f['Beginning Balance']).toBe("CHF 3'494.00");
  });

  it('reads labels with percentages and values after colons', () => {
    expect(fields(page('Subtotal: 100.00\nVAT 20%: 20.00'))['VAT 20%']).toBe('20.00');
  });

  it('does not cut a large single-line letterhead into lines', () => {
    const view = buildDocumentView([
      {
        output: blocksPage([
          { text: 'Silverline Analytics Ltd.', box: [50, 40, 300, 66] },
          { text: 'Invoice number: A-1', box: [50, 80, 150, 90] },
          { text: 'Date: 01.02.2024', box: [50, 92, 130, 102] },
          { text: 'Total: 12.00', box: [50, 104, 120, 114] },
        ]),
      },
    ]);
    expect(view.pages[0]?.lines[0]?.text).toBe('Silverline Analytics Ltd.');
  });
});

describe('tables from lines', () => {
  it('splits off a row-number column that the layout joined to the next', () => {
    const p = page(
      [
        'Item                   Qty    Price',
        '1 Paint, matte white     2    10.00',
        '2 LED panel light        1    25.00',
      ].join('\n'),
    );
    const t = p.tables[0];
    expect(t?.header.map((c) => c.text)).toEqual(['#', 'Item', 'Qty', 'Price']);
    expect(t?.rows[1]?.map((c) => c.text)).toEqual(['2', 'LED panel light', '1', '25.00']);
  });

  it('splits off a quantity column named in the same header cell', () => {
    const p = page(
      [
        'Qty Item / Service    Total',
        '1 Sandwich            12.02',
        '4 Bagel               10.80',
      ].join('\n'),
    );
    expect(p.tables[0]?.header.map((c) => c.text)).toEqual(['Qty', 'Item / Service', 'Total']);
  });

  it('joins a header set on two lines', () => {
    const p = page(
      [
        'Description           Line',
        '                      Total',
        'Coffee                 3.50',
        'Bagel                  2.20',
      ].join('\n'),
    );
    expect(p.tables[0]?.header.map((c) => c.text)).toEqual(['Description', 'Line Total']);
    expect(p.tables[0]?.rows).toHaveLength(2);
    expect(p.fields.map((f) => f.label)).not.toContain('Total');
  });

  it('splits off a date column joined to the next, and joins a date cut in two', () => {
    const joined = page(
      [
        'Posting Date Transaction        Debit     Balance',
        '2022-11-03 Direct debit TELECOM   505.87    2938.94',
        '2022-11-05 ATM withdrawal         89.54    2849.40',
      ].join('\n'),
    );
    expect(joined.tables[0]?.header.map((c) => c.text)).toEqual([
      'Posting Date',
      'Transaction',
      'Debit',
      'Balance',
    ]);
    const cut = page(
      [
        'Posting    Date        Description       Amount',
        '6          Dec 2024    ATM withdrawal    -20.00',
        '7          Dec 2024    Bank charges       -3.00',
      ].join('\n'),
    );
    expect(cut.tables[0]?.rows[0]?.map((c) => c.text)).toEqual([
      '6 Dec 2024',
      'ATM withdrawal',
      '-20.00',
    ]);
  });

  it('splits two figure columns joined in one', () => {
    const p = page(
      [
        'Description         Rate Qty     Line Total',
        'Consulting hours    122.29 17    2,078.93',
        'Server rack 42U     124.40 1       124.40',
      ].join('\n'),
    );
    expect(p.tables[0]?.header.map((c) => c.text)).toEqual([
      'Description',
      'Rate',
      'Qty',
      'Line Total',
    ]);
    expect(p.tables[0]?.rows[0]?.map((c) => c.text)).toEqual([
      'Consulting hours',
      '122.29',
      '17',
      '2,078.93',
    ]);
  });

  it('keeps an amount grouped by spaces whole, and a row of values is no header to split by', () => {
    const p = page(
      [
        'Beginning Balance    7 241,55 EUR',
        'Ending Balance       20 992,59 EUR',
        '',
        'Description    Rate Qty      Total',
        'Site survey    1 240,00 2    2 480,00',
        'Cable ties     12,50 3       37,50',
      ].join('\n'),
    );
    const f = fields(p);
    expect(f['Beginning Balance']).toBe('7 241,55 EUR');
    expect(f['Ending Balance']).toBe('20 992,59 EUR');
    const items = p.tables.find((t) => t.header[0]?.text === 'Description');
    expect(items?.rows[0]?.map((c) => c.text)).toEqual([
      'Site survey',
      '1 240,00',
      '2',
      '2 480,00',
    ]);
  });

  it('takes the row of labels right above the values as the header, not a label/value pair', () => {
    const p = page(
      [
        'Cashier         Peter',
        'Item            Amount',
        'Bagel           22.36',
        'Sandwich        11.15',
        'Subtotal        33.51',
        'Payment         Debit card',
      ].join('\n'),
    );
    expect(p.tables.map((t) => t.header.map((c) => c.text))).toEqual([['Item', 'Amount']]);
    expect(p.tables[0]?.rows.map((r) => r[0]?.text)).toEqual(['Bagel', 'Sandwich']);
  });

  it('ends a table at a row of labels under its values, which heads the next table', () => {
    const p = page(
      [
        'Invoice #    Account No.    Invoice Date    Payment Due',
        '2024/6715    C-99334        02-Aug-2024     16-Sep-2024',
        'Item                        Qty      Rate      Amount',
        'Ergonomic keyboard          20       39.40     788.00',
        'Copy paper A4               22       29.67     652.74',
      ].join('\n'),
    );
    expect(p.tables.map((t) => [t.header[0]?.text, t.rows.length])).toEqual([
      ['Invoice #', 1],
      ['Item', 2],
    ]);
  });

  it('ends a table of addresses at an items header whose first column is #', () => {
    const row = (top: number, cells: readonly [string, number, number][]) =>
      cells.map(([text, left, right]) => ({
        text,
        box: [left, top, right, top + 10] as [number, number, number, number],
      }));
    const p = blocksPage([
      ...row(100, [
        ['Bill To', 41, 76],
        ['From', 290, 320],
      ]),
      ...row(113, [
        ['Meridian Office Products AG', 41, 181],
        ['Meridian Cloud S.A.', 290, 388],
      ]),
      ...row(126, [
        ['Manchester M1 2AB', 41, 141],
        ['Mumbai 400053', 290, 372],
      ]),
      ...row(150, [
        ['#', 41, 49],
        ['Item', 77, 102],
        ['Qty', 269, 289],
        ['Price', 332, 360],
        ['Line Total', 405, 461],
      ]),
      ...row(163, [
        ['1', 41, 47],
        ['Ergonomic keyboard', 77, 180],
        ['20', 276, 289],
        ['CHF 39.40', 308, 360],
        ['CHF 788.00', 402, 461],
      ]),
      ...row(176, [
        ['2', 41, 47],
        ['Copy paper A4', 77, 150],
        ['22', 276, 289],
        ['CHF 29.67', 308, 360],
        ['CHF 652.74', 402, 461],
      ]),
    ]);
    const view = buildDocumentView([{ output: p }]);
    const tables = view.pages[0]?.tables ?? [];
    expect(tables.map((t) => t.rows.length)).toEqual([2, 2]);
    expect(tables[0]?.header.map((c) => c.text)).toEqual(['Bill To', 'From']);
    expect(tables[1]?.rows[0]?.map((c) => c.text)).toEqual([
      '1',
      'Ergonomic keyboard',
      '20',
      'CHF 39.40',
      'CHF 788.00',
    ]);
  });

  it('gives a date of several words to a date column the layout joined to the next', () => {
    const p = blocksPage([
      { text: 'Posting Date   Description', box: [50, 100, 250, 110] },
      { text: 'Amount', box: [300, 100, 340, 110] },
      { text: '1 March 2024 Standing order RENT', box: [50, 115, 250, 125] },
      { text: '-503.92', box: [300, 115, 340, 125] },
      { text: '12 March 2024 Card payment GROCERY', box: [50, 130, 250, 140] },
      { text: '-41.10', box: [300, 130, 340, 140] },
    ]);
    const view = buildDocumentView([{ output: p }]);
    const table = view.pages[0]?.tables[0];
    expect(table?.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['1 March 2024', 'Standing order RENT', '-503.92'],
      ['12 March 2024', 'Card payment GROCERY', '-41.10'],
    ]);
  });
});

describe('relining a page', () => {
  const rect = (left: number, top: number, right: number, bottom: number) => [
    { x: left, y: top },
    { x: right, y: top },
    { x: right, y: bottom },
    { x: left, y: bottom },
  ];
  const line = (text: string, top: number, bottom = top + 10, right = 200) => ({
    text,
    polygon: rect(18, top, right, bottom),
    ocrConfidence: null,
  });

  it('cuts a paragraph block back into lines, but never a row of cells', () => {
    const make = <T extends { text: string }>(base: T, text: string) => ({ ...base, text });
    const lines = [
      line('Receipt No.: 7431-932', 80),
      line('Item / Service    Amount', 95),
      // A row as high as its description wrapped onto two lines, with its cells as segments.
      {
        ...line('Batteries AA 3 @ 14,35    43,05', 110, 132, 100),
        segments: [
          { start: 0, end: 22, polygon: rect(18, 110, 70, 132) },
          { start: 26, end: 31, polygon: rect(80, 116, 100, 126) },
        ],
      },
      line('Thanks for shopping with us, see you again next time', 140, 162, 240),
      line('Hammer 1 @ 9,60    9,60', 170),
    ];
    const out = relinePage(lines, make).map((l) => l.text);
    expect(out).toContain('Batteries AA 3 @ 14,35    43,05');
    expect(out).not.toContain('Thanks for shopping with us, see you again next time');
  });

  it('puts the cells of a row of a slightly turned scan back on one line', () => {
    // The page is turned by about half a degree: from the amount column on the right to the
    // description on the left, each cell of a row sits a few points lower. The description's
    // middle is below the amount's box, but inside the price's, which is beside the amount.
    const make = <T extends { text: string }>(
      base: T,
      text: string,
      polygon: readonly { x: number; y: number }[],
    ) => ({ ...base, text, polygon });
    const cell = (text: string, left: number, top: number, right: number, bottom: number) => ({
      text,
      polygon: rect(left, top, right, bottom),
      ocrConfidence: 0.9,
    });
    const lines = [
      cell('Item / Service', 83, 382, 166, 396),
      cell('Price', 394, 383, 423, 391),
      cell('Amount', 516, 382, 562, 390),
      cell('Shipping & handling', 84, 413.6, 195, 424.8),
      cell('CA$ 349.09', 360, 410, 424, 420.1),
      cell('CA$ 698.18', 499, 408.6, 562, 418.3),
      cell('Printer toner black', 84, 440.6, 185, 451.8),
      cell('CA$ 52.10', 367, 437.4, 423, 447.1),
      cell('CA$ 1,250.40', 489, 436, 562, 445.7),
    ];
    const out = relinePage(lines, make).map((l) => l.text);
    expect(out).toEqual([
      'Item / Service    Price    Amount',
      'Shipping & handling    CA$ 349.09    CA$ 698.18',
      'Printer toner black    CA$ 52.10    CA$ 1,250.40',
    ]);
  });
});

describe('fields of a table block', () => {
  const region = {
    page: 1,
    pageWidth: 612,
    pageHeight: 792,
    polygon: [],
    ocrConfidence: null,
  };
  const table = (rows: readonly (readonly string[])[]): DocumentTable => {
    const cells = rows.map((r) => r.map((text) => ({ text, region })));
    return { page: 1, header: cells[0] ?? [], rows: cells.slice(1) };
  };
  const pairs = (t: DocumentTable) => tableFields(t).map((f) => `${f.label}=${f.value}`);

  it('reads a grid of label/value pairs side by side', () => {
    expect(
      pairs(
        table([
          ['Account No.', '77118192', 'Period', '1 Aug - 31 Aug 2022'],
          ['Sort Code', '89-72-95', 'Currency', 'GBP'],
          ['Account holder:', 'Hannah Martin', '', ''],
        ]),
      ),
    ).toEqual([
      'Account No.=77118192',
      'Period=1 Aug - 31 Aug 2022',
      'Sort Code=89-72-95',
      'Currency=GBP',
      'Account holder=Hannah Martin',
    ]);
  });

  it('reads no pairs out of an items table of four columns', () => {
    expect(
      pairs(
        table([
          ['Qty', 'Description', 'Unit Price', 'Amount'],
          ['2', 'Paper A4', '4.50', '9.00'],
          ['1', 'Toner', '60.00', '60.00'],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads two labels over two values as labels over their values, not as two pairs', () => {
    expect(
      pairs(
        table([
          ['Opening Balance', 'Ending Balance'],
          ['4.193,59 €', '11.595,60 €'],
        ]),
      ),
    ).toEqual(['Opening Balance=4.193,59 €', 'Ending Balance=11.595,60 €']);
    // A grid of two pairs stays one.
    expect(
      pairs(
        table([
          ['Account', '12345678'],
          ['Holder', 'Maria Lopez'],
        ]),
      ),
    ).toEqual(['Account=12345678', 'Holder=Maria Lopez']);
  });

  it('reads a row of labels over one row of values in lines of text', () => {
    const f = fields(
      page(
        [
          'Harbor Bank',
          'Opening Balance    Ending Balance',
          '4,193.59    11,595.60',
          '',
          'Date    Description    Amount    Balance',
          '01/05/2023    Bank charges    -446.80    3,746.79',
        ].join('\n'),
      ),
    );
    expect(f['Opening Balance']).toBe('4,193.59');
    expect(f['Ending Balance']).toBe('11,595.60');
  });

  it('reads a column of labels beside its values next to an address column', () => {
    expect(
      pairs(
        table([
          ['Ingrid Rossi', 'Account ID', 'GB63 NWBK 6212 7421 7246 43'],
          ['77 Harbor Road', 'For the period', '01-01-2023 – 31-01-2023'],
          ['10115 Berlin', 'Sort Code', '24-93-59'],
        ]),
      ),
    ).toEqual([
      'Account ID=GB63 NWBK 6212 7421 7246 43',
      'For the period=01-01-2023 – 31-01-2023',
      'Sort Code=24-93-59',
    ]);
    // Items beside their counts and amounts are no such column.
    expect(
      pairs(
        table([
          ['Item No.', 'Description', 'Amount'],
          ['Paper No.', 'Paper A4', '9.00'],
          ['Toner No.', 'Toner', '60.00'],
        ]),
      ),
    ).toEqual([]);
  });
});
