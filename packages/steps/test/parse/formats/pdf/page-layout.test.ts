import { describe, expect, it } from 'vitest';
import {
  bodySize,
  headingSizesOf,
  withHeadings,
} from '../../../../src/parse/formats/pdf/headings.ts';
import { layoutPage } from '../../../../src/parse/formats/pdf/page-layout.ts';
import { groupRows, liftWrappedValue } from '../../../../src/parse/formats/pdf/row-tables.ts';
import {
  joinRow,
  type LinePiece,
  pieceOf,
  type TextLine,
} from '../../../../src/parse/formats/pdf/text-lines.ts';
import type { TextRun } from '../../../../src/parse/formats/pdf/text-runs.ts';

/** A run of `text` at `top` (upright frame), `size` points high. */
function run(text: string, top: number, size: number, bold = false): TextRun {
  const width = text.length * size * 0.5;
  return {
    text,
    box: { left: 72, top, right: 72 + width, bottom: top + size },
    baseline: top + size * 0.8,
    size,
    bold,
    angle: 0,
  };
}

describe('layoutPage and withHeadings', () => {
  const runs = [
    run('Quarterly report', 60, 18, true),
    run('Revenue grew in every region this quarter.', 100, 11),
    run('Outlook', 140, 11, true),
    run('- Hiring continues', 170, 11),
  ];

  it('lays a page out without heading levels, each paragraph a candidate', () => {
    const laid = layoutPage(runs, []);
    expect(laid.blocks.map((block) => block.markdown)).toEqual([
      'Quarterly report',
      'Revenue grew in every region this quarter.',
      'Outlook',
      '- Hiring continues',
    ]);
    expect(laid.blocks.some((block) => 'headingLevel' in block)).toBe(false);
    expect(laid.headings).toEqual([
      { index: 0, size: 18, bold: true },
      { index: 1, size: 11, bold: false },
      { index: 2, size: 11, bold: true },
      { index: 3, size: 11, bold: false },
    ]);
  });

  it('makes headings from the sizes of the whole document', () => {
    const laid = layoutPage(runs, []);
    // Another page of the document has 14 pt text: 18 pt is level 1, 14 pt level 2.
    const sizes = [
      { size: 18, chars: 16 },
      { size: 11, chars: 2000 },
      { size: 14, chars: 40 },
    ];
    const body = bodySize(sizes);
    const headingSizes = headingSizesOf(sizes, body);
    expect(headingSizes).toEqual([18, 14]);
    const blocks = withHeadings(laid.blocks, laid.headings, headingSizes, body);
    expect(blocks.map((block) => [block.markdown, block.headingLevel])).toEqual([
      ['# Quarterly report', 1],
      ['Revenue grew in every region this quarter.', undefined],
      // A lone short bold line at body size: the level below the size-based ones.
      ['### Outlook', 3],
      ['- Hiring continues', undefined],
    ]);
    // The blocks laid out are left as they were.
    expect(laid.blocks[0]?.markdown).toBe('Quarterly report');
    // Where 18 pt is the body size, nothing is a heading by size.
    const flat = withHeadings(laid.blocks, laid.headings, [], 18);
    expect(flat.map((block) => block.headingLevel)).toEqual([1, undefined, 1, undefined]);
  });
});

/** A run of `text` with its left edge at `left` on the line whose top is `top`. */
function at(text: string, left: number, top: number, size = 10, bold = false): TextRun {
  return {
    text,
    box: { left, top, right: left + text.length * size * 0.5, bottom: top + size },
    baseline: top + size * 0.8,
    size,
    bold,
    angle: 0,
  };
}

/** A paragraph of body text as wide as a page's text column (72 to 540). */
const PROSE = at(
  'Our terms are printed on the back of this page and apply to every order we ship.',
  72,
  400,
);

describe('layoutPage: lines and paragraphs from geometry', () => {
  it('keeps key/value lines apart: one line each, in content and markdown', () => {
    const laid = layoutPage(
      [
        at('Invoice Number: INV-1', 72, 100),
        at('Invoice Date: 2024-01-15', 72, 112),
        at('Due Date: 2024-02-14', 72, 124),
        at('Bill To:', 72, 150),
        at('Hooli Cloud', 72, 162),
        at('1 Main Street', 72, 174),
        PROSE,
      ],
      [],
    );
    const [fields, address] = laid.blocks;
    expect(fields?.content).toBe(
      'Invoice Number: INV-1\nInvoice Date: 2024-01-15\nDue Date: 2024-02-14',
    );
    expect(fields?.markdown).toBe(fields?.content);
    expect(address?.markdown).toBe('Bill To:\nHooli Cloud\n1 Main Street');
  });

  it('joins lines that wrap with a space, and a word hyphenated at the line end', () => {
    const laid = layoutPage(
      [
        at('The routine reads the problem data from a file in the DIMACS pro-', 72, 100),
        at('gramming format and checks every clause of it against the schema', 72, 112),
        at('given.', 72, 124),
      ],
      [],
    );
    expect(laid.blocks).toHaveLength(1);
    expect(laid.blocks[0]?.markdown).toBe(
      'The routine reads the problem data from a file in the DIMACS programming format and checks every clause of it against the schema given.',
    );
    // Content keeps the visual lines.
    expect(laid.blocks[0]?.content.split('\n')).toHaveLength(3);
  });

  it('reads a label and its value set apart on one row as one line, not as a heading', () => {
    const laid = layoutPage(
      [
        at('Subtotal', 72, 100, 10, true),
        at('11.00', 480, 100, 10, true),
        at('TOTAL', 72, 130, 10, true),
        at('12.50', 480, 130, 10, true),
        at('Thank you for your business.', 72, 160),
      ],
      [],
    );
    expect(laid.blocks.map((b) => b.content)).toEqual([
      'Subtotal 11.00',
      'TOTAL 12.50',
      'Thank you for your business.',
    ]);
    expect(laid.headings.filter((h) => h.bold)).toEqual([]);
    const blocks = withHeadings(laid.blocks, laid.headings, [], 10);
    expect(blocks.some((b) => b.headingLevel !== undefined)).toBe(false);
  });

  it('takes a bold body-size line for a heading only when it stands alone above text', () => {
    const laid = layoutPage(
      [
        at('Payment details', 72, 100, 10, true),
        at('Pay within 30 days by bank transfer.', 72, 116),
        // A bold line directly followed by another bold line: a bold block, no heading.
        at('Bank of Springfield', 72, 160, 10, true),
        at('IBAN DE89 3704 0044 0532 0130 00', 72, 190, 10, true),
        at('Quote the invoice number.', 72, 206),
      ],
      [],
    );
    const blocks = withHeadings(laid.blocks, laid.headings, [], 10);
    expect(blocks.map((b) => b.markdown)).toEqual([
      '# Payment details',
      'Pay within 30 days by bank transfer.',
      'Bank of Springfield',
      '# IBAN DE89 3704 0044 0532 0130 00',
      'Quote the invoice number.',
    ]);
  });

  it('escapes a line starting with # or > so that markdown does not read a heading or quote', () => {
    const laid = layoutPage(
      [at('# compute the totals', 72, 100), at('x <- sum(a)', 72, 112), at('> 42', 72, 124), PROSE],
      [],
    );
    expect(laid.blocks[0]?.markdown).toBe('\\# compute the totals\nx <- sum(a)\n\\> 42');
    expect(laid.blocks[0]?.content).toBe('# compute the totals\nx <- sum(a)\n> 42');
  });

  it('reads text overlapping the text before it by more than kerning as another word', () => {
    // A cell's text clipped by the next cell: "Oakmont Facilities Pvt" runs under "2023-06-19".
    const laid = layoutPage(
      [at('Oakmont Facilities Pvt', 236, 100), at('2023-06-19', 330, 100)],
      [],
    );
    expect(laid.blocks[0]?.content).toBe('Oakmont Facilities Pvt 2023-06-19');
    // Kerning (a fraction of an em) joins.
    const kerned = layoutPage([at('Wa', 72, 100), at('ter', 82 - 1, 100)], []);
    expect(kerned.blocks[0]?.content).toBe('Water');
  });

  it('never emits control characters', () => {
    const laid = layoutPage([at('Total\u0000 due\u0008:\u001c 5', 72, 100)], []);
    expect(laid.blocks[0]?.content).toBe('Total due: 5');
  });

  it('leaves a grid of rules with mostly empty cells (a plot) out of the tables', () => {
    // A 4 × 4 grid of rules (a chart's frame and grid lines) with two labels inside.
    const grid = {
      box: { left: 100, top: 100, right: 500, bottom: 400 },
      rows: [100, 175, 250, 325, 400],
      columns: [100, 200, 300, 400, 500],
    };
    const laid = layoutPage([at('Sales', 110, 110), at('2024', 410, 380)], [grid]);
    expect(laid.blocks.filter((b) => b.type === 'table')).toEqual([]);
    expect(laid.blocks.map((b) => b.content).join(' ')).toBe('Sales 2024');
    // The same grid with text in most cells is a table.
    const cells = grid.rows
      .slice(0, -1)
      .flatMap((top, r) =>
        grid.columns.slice(0, -1).map((left, c) => at(`r${r}c${c}`, left + 10, top + 10)),
      );
    const table = layoutPage(cells, [grid]);
    expect(table.blocks.map((b) => b.type)).toEqual(['table']);
  });
});

describe('layoutPage: rows of separated pieces', () => {
  const row = (top: number, cells: readonly [string, number][], bold = false) =>
    cells.map(([text, left]) => at(text, left, top, 10, bold));
  const columns = (a: string, b: string, c: string, d: string): [string, number][] => [
    [a, 72],
    [b, 300],
    [c, 380],
    [d, 470],
  ];

  it('reads aligned rows without rules as a table, and the totals under it as fields', () => {
    const laid = layoutPage(
      [
        ...row(100, columns('Item', 'Qty', 'Price', 'Total'), true),
        ...row(116, columns('Pallet wrap roll', '3', '35.50', '106.50')),
        ...row(132, columns('Site survey', '1', '181.95', '181.95')),
        ...row(160, [
          ['Subtotal', 72],
          ['288.45', 470],
        ]),
        ...row(176, [
          ['Total due', 72],
          ['300.00', 470],
        ]),
      ],
      [],
    );
    expect(laid.blocks.map((b) => b.type)).toEqual(['table', 'key_value', 'key_value']);
    const [table, subtotal] = laid.blocks;
    expect(table?.markdown).toBe(
      [
        '| Item | Qty | Price | Total |',
        '| --- | --- | --- | --- |',
        '| Pallet wrap roll | 3 | 35.50 | 106.50 |',
        '| Site survey | 1 | 181.95 | 181.95 |',
      ].join('\n'),
    );
    expect(table?.details).toEqual({ type: 'table_details', rowCount: 3, columnCount: 4 });
    expect(table?.children?.[5]).toMatchObject({
      content: '3',
      details: { rowIndex: 1, columnIndex: 1 },
    });
    expect(subtotal).toMatchObject({
      content: 'Subtotal 288.45',
      details: { type: 'key_value_details', key: 'Subtotal', value: '288.45' },
    });
    // Without key-value blocks, the fields are text lines.
    const plain = layoutPage(
      row(160, [
        ['Subtotal', 72],
        ['288.45', 470],
      ]),
      [],
      [],
      { keyValues: false },
    );
    // The content keeps the gap between the pieces; the markdown closes it to one space.
    expect(plain.blocks.map((b) => [b.type, b.content, b.markdown])).toEqual([
      ['text', 'Subtotal    288.45', 'Subtotal 288.45'],
    ]);
  });

  it('keeps the gaps of a lone row of three pieces in its content (a letterhead beside a label and its value)', () => {
    const { blocks } = layoutPage(
      row(90, [
        ['Juniper Cloud', 50],
        ['Invoice #', 330],
        ['416055', 520],
      ]),
      [],
    );
    expect(blocks.map((b) => [b.type, b.content, b.markdown])).toEqual([
      ['text', 'Juniper Cloud    Invoice #    416055', 'Juniper Cloud Invoice # 416055'],
    ]);
  });

  it('cuts blocks of different column structures one under the other into separate tables', () => {
    // Three address columns (wide cells) right above a four-column items table: merged into one
    // grid, the items' figures would share the third address column.
    const parties = (top: number, a: string, b: string, c: string) =>
      row(top, [
        [a, 72],
        [b, 250],
        [c, 420],
      ]);
    const laid = layoutPage(
      [
        ...parties(100, 'From', 'Billed To', 'Ship To'),
        ...parties(114, 'Umber Design Studio GmbH', 'Umber Supply Co. Pvt. Ltd.', 'Umber Supply'),
        ...parties(128, '12 Market Street', 'Plot 18, MIDC Andheri', 'Attn: Lucas Brien'),
        ...row(152, [
          ['Item', 72],
          ['Rate', 400],
          ['Qty', 460],
          ['Total', 510],
        ]),
        ...row(166, [
          ['Replacement filter cartridges, large', 72],
          ['166.25', 400],
          ['23', 460],
          ['3,823.75', 510],
        ]),
        ...row(180, [
          ['Laptop stand', 72],
          ['350.69', 400],
          ['11', 460],
          ['3,857.59', 510],
        ]),
      ],
      [],
    );
    const items = laid.blocks.find((b) => b.type === 'table' && b.content.includes('166.25'));
    expect(items?.details).toEqual({ type: 'table_details', rowCount: 3, columnCount: 4 });
    expect(items?.markdown.split('\n')[2]).toBe(
      '| Replacement filter cartridges, large | 166.25 | 23 | 3,823.75 |',
    );
    expect(items?.content).not.toContain('Ship To');
  });

  it('keeps two cells of a row apart when a long cell of a row below reaches over both', () => {
    // ReportLab: a row of four labels over their values, a table of two parties whose first name
    // runs from the first label's column past where the second label starts, then the items.
    const laid = layoutPage(
      [
        ...row(100, [
          ['Document No.', 72],
          ['Customer ID', 190],
          ['Date', 306],
          ['Due', 423],
        ]),
        ...row(112, [
          ['2024/1902', 72],
          ['C-24010', 190],
          ['2024-10-15', 306],
          ['2024-12-14', 423],
        ]),
        ...row(136, [
          ['Bill To', 72],
          ['Vendor', 306],
        ]),
        ...row(148, [
          ['Redwood Consulting Group Pvt. Ltd.', 72],
          ['Muller & Sohne Cloud S.A.', 306],
        ]),
        ...row(172, [
          ['Quantity Description', 72],
          ['Unit Price', 400],
          ['Amount', 480],
        ]),
        ...row(184, [
          ['22 LED panel light 60x60', 72],
          ['131.83', 400],
          ['2,900.26', 480],
        ]),
        // Text across the page: one column of text, not two.
        at(
          'Please transfer the amount to IBAN DE89 3704 0044 0532 0130 00, quoting 2024/1902.',
          72,
          210,
        ),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n').slice(0, 3)).toEqual([
      '| Document No. | Customer ID | Date | Due |',
      '| --- | --- | --- | --- |',
      '| 2024/1902 | C-24010 | 2024-10-15 | 2024-12-14 |',
    ]);
  });

  it('reads columns two text sizes apart as cells of a table, and word spaces as words', () => {
    // A dense statement at 10 pt: each column starts about two text sizes after the widest
    // text of the column before it (18 to 23 pt).
    const cells = (top: number, texts: readonly string[]) =>
      texts.map((text, i) => at(text, [72, 150, 270, 345][i] ?? 0, top));
    const laid = layoutPage(
      [
        ...cells(100, ['Posting Date', 'Details', 'Withdrawals', 'Balance']),
        ...cells(116, ['Jun 1, 2023', 'Direct debit TELECOM', '548.58', '6,387.44']),
        ...cells(132, ['Jun 2, 2023', 'Cash deposit', '143.95', '6,531.39']),
      ],
      [],
    );
    // (The date column, set apart from the rest by a gutter on every row, is read on its own.)
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n')[2]).toBe('| Direct debit TELECOM | 548.58 | 6,387.44 |');
  });
});

describe('layoutPage: cells set close together', () => {
  /** A run of `text` on `baseline` from `left`, 5 pt per character. */
  const at10 = (text: string, left: number, baseline: number, size = 10.5): TextRun => ({
    text,
    box: {
      left,
      top: baseline - size * 0.8,
      right: left + text.length * 5,
      bottom: baseline + 2.3,
    },
    baseline,
    size,
    bold: false,
    angle: 0,
  });

  /** A run of `text` from `left` to `right` on the line whose top is `top`, 11 pt. */
  const span = (text: string, left: number, right: number, top: number, bold = false): TextRun => ({
    text,
    box: { left, top, right, bottom: top + 11 },
    baseline: top + 8.8,
    size: 11,
    bold,
    angle: 0,
  });

  it('cuts a piece holding two header cells where the rows below show a column edge', () => {
    // LibreOffice Calc: `Unit Price` and `Quantity` 10 pt apart (under the 13 pt that separates
    // pieces), each a text item of its own, over right-aligned figures.
    const body = (top: number, [item, price, qty, total]: readonly string[]) => [
      span(item ?? '', 41, 41 + (item ?? '').length * 5.5, top),
      span(price ?? '', 270.3 - (price ?? '').length * 5.8, 270.3, top),
      span(qty ?? '', 329.6 - (qty ?? '').length * 6.3, 329.6, top),
      span(total ?? '', 400.7 - (total ?? '').length * 5.8, 400.7, top),
    ];
    const laid = layoutPage(
      [
        span('Description', 41, 104.3, 100, true),
        span('Unit Price', 216.2, 270.2, 100, true),
        span('Quantity', 280.5, 329.5, 100, true),
        span('Total', 372.8, 400.7, 100, true),
        ...body(114, ['Copy paper A4, 500 sheets', '$146.33', '20', '$2,926.60']),
        ...body(128, ['Consulting hours', '$84.28', '1', '$84.28']),
        ...body(142, ['Site survey', '$429.22', '9', '$3,862.98']),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n').slice(0, 3)).toEqual([
      '| Description | Unit Price | Quantity | Total |',
      '| --- | --- | --- | --- |',
      '| Copy paper A4, 500 sheets | $146.33 | 20 | $2,926.60 |',
    ]);
  });

  it('keeps a word gap inside a cell, which lines up with no column edge of other rows', () => {
    const laid = layoutPage(
      [
        span('Item', 41, 63, 100, true),
        span('Amount', 300, 340, 100, true),
        // One description in two text items 8 pt apart (a justified or re-encoded line).
        span('Replacement', 41, 101.5, 114),
        span('filter', 109.5, 139, 114),
        span('12.00', 312, 340, 114),
        span('Site survey', 41, 101, 128),
        span('3.50', 318, 340, 128),
        span('Cable ties', 41, 96, 142),
        span('1.25', 318, 340, 142),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n')[2]).toBe('| Replacement filter | 12.00 |');
  });

  it('keeps a description reaching into the next column apart from it, with its own extent', () => {
    // Calc's statement: descriptions end a point or two right of where the (wider) header of the
    // next column starts; the figures under that header are right-aligned.
    const laid = layoutPage(
      [
        span('Posting Date', 41, 99.5, 100, true),
        span('Details', 230.4, 263, 100, true),
        span('Withdrawals', 363.7, 422.5, 100, true),
        span('Balance', 486.3, 521.8, 100, true),
        span('2022-11-03', 41, 87.6, 114),
        span('Card payment RESTAURANT', 230.4, 365.6, 114),
        span('263,66', 394.9, 422.4, 114),
        span('2 215,70', 486.8, 521.8, 114),
        span('2022-11-05', 41, 87.6, 128),
        span('ATM withdrawal', 230.4, 307.9, 128),
        span('471,01', 394.9, 422.4, 128),
        span('1 744,69', 486.8, 521.8, 128),
      ],
      [],
    );
    // (The date column, set apart by a gutter on every row of so short a table, is read on its own.)
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n')).toEqual([
      '| Details | Withdrawals | Balance |',
      '| --- | --- | --- |',
      '| Card payment RESTAURANT | 263,66 | 2 215,70 |',
      '| ATM withdrawal | 471,01 | 1 744,69 |',
    ]);
    // A cell's box is where its text is, not the whole column's span.
    const figure = table?.children?.find((c) => c.content === '471,01');
    expect(figure?.boundingBox).toMatchObject({ left: 394.9, right: 422.4 });
  });

  it('reads a table with a wide gutter and amounts with a currency code as one table', () => {
    // A vertical gutter runs through the whole table between the items and the figures: rows,
    // not two text columns, since the right side holds values (`CHF 39.40` is one).
    const row = (top: number, texts: readonly string[]) =>
      texts.map((text, i) => at(text, [41, 77, 276, 308, 402][i] ?? 0, top));
    const laid = layoutPage(
      [
        ...row(100, ['#', 'Item', 'Qty', 'Price', 'Line Total']),
        ...row(114, ['1', 'Ergonomic keyboard', '20', 'CHF 39.40', 'CHF 788.00']),
        ...row(128, ['2', 'Copy paper A4', '22', 'CHF 29.67', 'CHF 652.74']),
        ...row(142, ['3', 'Safety gloves (pair)', '21', 'CHF 375.70', "CHF 7'889.70"]),
      ],
      [],
    );
    const tables = laid.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.markdown.split('\n')[2]).toBe(
      '| 1 | Ergonomic keyboard | 20 | CHF 39.40 | CHF 788.00 |',
    );
  });

  it('joins a detail line set as a padded row of its own to the description above it', () => {
    // Each row padded (2.15 text sizes apart): a transaction's reference on a row of its own
    // under its description, then the next transaction.
    const row = (top: number, texts: readonly string[]) =>
      texts.flatMap((text, i) => (text ? [at(text, [40, 90, 300, 380][i] ?? 0, top, 9)] : []));
    const laid = layoutPage(
      [
        ...row(100, ['Date', 'Transaction', 'Amount', 'Balance']),
        ...row(119.4, ['01 Apr', 'Direct debit TELECOM', '140.19', '3,608.61']),
        ...row(138.7, ['', 'INV 20931 THANK YOU', '', '']),
        ...row(158.1, ['08 Apr', 'Card payment RESTAURANT', '542.46', '3,066.15']),
        ...row(177.4, ['09 Apr', 'Cash deposit', '1,448.62', '4,514.77']),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n').slice(2)).toEqual([
      '| 01 Apr | Direct debit TELECOM INV 20931 THANK YOU | 140.19 | 3,608.61 |',
      '| 08 Apr | Card payment RESTAURANT | 542.46 | 3,066.15 |',
      '| 09 Apr | Cash deposit | 1,448.62 | 4,514.77 |',
    ]);
  });

  it('reads figures with CR and DR after them as a value column, not a text column', () => {
    // Calc's narrow statement: the holder's address beside label/value pairs, then a table whose
    // balance column sits under the pairs' values, a gutter of 14 pt before it all the way down.
    const row = (top: number, texts: readonly string[]) =>
      texts.map((text, i) => at(text, [40, 75, 230, 284][i] ?? 0, top, 8));
    const laid = layoutPage(
      [
        at('Ingrid Becker', 40, 100, 8),
        at('Account ID  229-507015-99', 284, 100, 8),
        at('9 Elm Avenue', 40, 110, 8),
        at('Period  10/01/2024 - 10/31/2024', 284, 110, 8),
        ...row(130, ['Date', 'Description', 'Amount', 'Balance']),
        ...row(140, ['Oct 1', 'Card payment ONLINE STORE', '178.25 DR', '7,569.14 CR']),
        ...row(150, ['Oct 4', 'ATM withdrawal', '124.50 DR', '7,444.64 CR']),
        ...row(160, ['Oct 6', 'Transfer from J SMITH', '433.75 CR', '7,878.39 CR']),
        ...row(170, ['Oct 7', 'Bank charges', '12.00 DR', '7,866.39 CR']),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table' && b.content.includes('Oct 1'));
    expect(table?.markdown.split('\n').slice(2)).toEqual([
      '| Oct 1 | Card payment ONLINE STORE | 178.25 DR | 7,569.14 CR |',
      '| Oct 4 | ATM withdrawal | 124.50 DR | 7,444.64 CR |',
      '| Oct 6 | Transfer from J SMITH | 433.75 CR | 7,878.39 CR |',
      '| Oct 7 | Bank charges | 12.00 DR | 7,866.39 CR |',
    ]);
  });

  it('joins a cell wrapped onto two lines to its row, and keeps the rows whole beside a footer', () => {
    // Chromium's statement re-distilled: a narrow balance column wraps `CA$ 10,837.73` onto two
    // lines, set 0.7 text sizes above and below the row's baseline; a footer sits at the bottom
    // right, under the balance column.
    const row = (baseline: number, details: string, amount: string, balance: string) => [
      at10(details, 131, baseline),
      at10(amount, 350, baseline),
      ...(balance.length > 10
        ? [at10(balance, 495, baseline)]
        : [at10('CA$', 539, baseline - 7.5), at10(balance, 510.8, baseline + 7)]),
    ];
    const laid = layoutPage(
      [
        at10('Details', 131, 100),
        at10('Withdrawals', 338.7, 100),
        at10('Balance', 517, 100),
        ...row(126, 'Card payment RESTAURANT', 'CA$ 492.35', '10,345.38'),
        ...row(152, 'Card payment FUEL STATION', 'CA$ 103.11', '10,242.27'),
        ...row(178, 'Bank charges', 'CA$ 12.00', '10,230.27'),
        ...row(204, 'Direct debit TELECOM', 'CA$ 417.46', 'CA$ 9,812.81'),
        at10('Page 2 of 2', 513, 770),
      ],
      [],
    );
    const tables = laid.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.markdown.split('\n').slice(2)).toEqual([
      '| Card payment RESTAURANT | CA$ 492.35 | CA$ 10,345.38 |',
      '| Card payment FUEL STATION | CA$ 103.11 | CA$ 10,242.27 |',
      '| Bank charges | CA$ 12.00 | CA$ 10,230.27 |',
      '| Direct debit TELECOM | CA$ 417.46 | CA$ 9,812.81 |',
    ]);
  });

  it('reads a row two lines high as one row: a description wrapped over both, its amount between', () => {
    // A receipt printed by Chromium: `Batteries AA 3 @` over `14,35` in the item column, the
    // line's amount set between the two lines, 0.57 text sizes from each.
    const laid = layoutPage(
      [
        at10('Item / Service', 18, 100),
        at10('Amount', 172, 100),
        at10('Batteries AA 3 @', 18, 117),
        at10('43,05', 178, 123),
        at10('14,35', 18, 129),
        at10('Croissant 2 @ 15,77', 18, 145),
        at10('31,54', 178, 145),
        at10('Hammer 1 @ 9,60', 18, 161),
        at10('9,60', 184, 161),
      ],
      [],
    );
    const tables = laid.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.markdown.split('\n').slice(2)).toEqual([
      '| Batteries AA 3 @ 14,35 | 43,05 |',
      '| Croissant 2 @ 15,77 | 31,54 |',
      '| Hammer 1 @ 9,60 | 9,60 |',
    ]);
  });

  it('keeps a date wrapped onto two lines in its row, and an address beside a label apart', () => {
    const row = (baseline: number, date: string, details: string, amount: string) => [
      ...(date.includes(' 2024')
        ? [at10(date, 54, baseline)]
        : [at10(date, 54, baseline - 6), at10('2024', 54, baseline + 6)]),
      at10(details, 138, baseline),
      at10(amount, 412, baseline),
    ];
    const laid = layoutPage(
      [
        // A letterhead's address (10 pt) beside a label and its value (10.5 pt) set between its
        // lines, but not centred: no row.
        at10('221 Baker Street', 50, 40, 10),
        at10('Austin, TX 78701', 50, 52, 10),
        at10('P.O. No.', 322, 44.3),
        at10('PO293131', 494, 44.3),
        at10('Date', 54, 100),
        at10('Description', 138, 100),
        at10('Amount', 416, 100),
        ...row(116, '8 December 2024', 'Insurance premium', '-476,02'),
        ...row(138, '12 December', 'Online transfer to SAVINGS', '-486,02'),
        ...row(166, '15 December', 'Incoming payment INV-2291', '2 172,47'),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n').slice(2)).toEqual([
      '| 8 December 2024 | Insurance premium | -476,02 |',
      '| 12 December 2024 | Online transfer to SAVINGS | -486,02 |',
      '| 15 December 2024 | Incoming payment INV-2291 | 2 172,47 |',
    ]);
    expect(laid.blocks.map((b) => b.content)).toContain('221 Baker Street\nAustin, TX 78701');
  });

  it('joins the second line of a top-aligned cell to its row (ReportLab, Writer)', () => {
    // A statement by ReportLab's platypus: cells align at their top, so a date wrapped in its
    // narrow column has its year alone on the next line, under the date; a note after the table
    // starts at the table's left edge, as the date does, but further down.
    const row = (baseline: number, date: string, details: string, amount: string) => [
      at10(date, 54, baseline),
      at10('2025', 54, baseline + 12),
      at10(details, 138, baseline),
      at10(amount, 412, baseline),
    ];
    const laid = layoutPage(
      [
        at10('Date', 54, 100),
        at10('Description', 138, 100),
        at10('Amount', 412, 100),
        ...row(116, '1 November', 'Interest paid', '2 032,65'),
        ...row(144, '2 November', 'Salary ACME CORP', '1 810,58'),
        ...row(172, '3 November', 'Cheque 000184', '-154,58'),
        at10('Balance carried forward on 30 November', 54, 240),
      ],
      [],
    );
    const table = laid.blocks.find((b) => b.type === 'table');
    expect(table?.markdown.split('\n').slice(2)).toEqual([
      '| 1 November 2025 | Interest paid | 2 032,65 |',
      '| 2 November 2025 | Salary ACME CORP | 1 810,58 |',
      '| 3 November 2025 | Cheque 000184 | -154,58 |',
    ]);
    expect(laid.blocks.map((b) => b.content)).toContain('Balance carried forward on 30 November');
    // A letterhead's address stacked under its name, beside label/value rows, is no wrapped
    // cell: more single lines follow it (reading order takes the address block together).
    const line = (...runs: TextRun[]) => joinRow(runs.map((r) => pieceOf([r]) as LinePiece));
    const groups = groupRows(
      [
        line(at10('J C', 50, 70), at10('Invoice', 300, 70)),
        line(at10('Juniper Cloud', 50, 93), at10('Invoice #', 332, 93), at10('416055', 527, 93)),
        line(at10('Hauptstraße 41', 50, 106.5)),
        line(at10('Mumbai 400053', 50, 119.25)),
        line(at10('Date invoiced', 332, 105.75), at10('2023-01-21', 510, 105.75)),
      ],
      (l) => l,
    );
    expect(JSON.stringify(groups)).not.toContain('Juniper Cloud Hauptstraße');
  });

  it('keeps an address in a smaller size apart from a label and its value centred beside it', () => {
    // A purchase order's letterhead (LibreOffice): the address's two lines in 9 pt, and
    // `Required By  2025-09-13` in 10.5 pt exactly between them. Placed as a wrapped cell is,
    // but a row's cells share a size: the address is not a cell of that row.
    const laid = layoutPage(
      [
        at10('9 Elm Avenue', 50, 96, 9),
        at10('Springfield, IL 62701', 50, 108, 9),
        at10('Required By', 322, 102),
        at10('2025-09-13', 494, 102),
      ],
      [],
    );
    expect(laid.blocks.filter((b) => b.type === 'table')).toEqual([]);
    expect(laid.blocks.map((b) => b.content)).toContain('9 Elm Avenue\nSpringfield, IL 62701');
  });

  it('keeps a row whole when reading order takes its figures apart around a wrapped balance', () => {
    // Chromium's statement re-distilled, as it comes: the deposit of a row whose balance wraps
    // sits beyond a wide gap, read after the balance's upper line.
    const row = (baseline: number, texts: readonly string[]) =>
      texts.flatMap((text, i) => {
        if (text === '') return [];
        const left = [54, 131, 350, 418, 495][i] ?? 0;
        if (i !== 4 || text.length <= 12) return [at10(text, left, baseline)];
        return [at10('CA$', 539, baseline - 6.75), at10(text.slice(4), 511, baseline + 7.5)];
      });
    const laid = layoutPage(
      [
        ...row(100, ['Posting Date', 'Details', 'Withdrawals', 'Deposits', 'Balance']),
        ...row(125, ['Jun 10, 2023', 'Incoming payment', '', 'CA$ 575.45', 'CA$ 7,234.87']),
        ...row(151, ['Jun 12, 2023', 'Salary ACME CORP', '', 'CA$ 2,166.53', 'CA$ 9,401.40']),
        ...row(176, ['Jun 12, 2023', 'Incoming payment', '', 'CA$ 992.49', 'CA$ 10,393.89']),
        ...row(202, ['Jun 12, 2023', 'Direct debit', 'CA$ 584.97', '', 'CA$ 9,808.92']),
        ...row(227, ['Jun 13, 2023', 'Card payment', 'CA$ 486.53', '', 'CA$ 9,322.39']),
      ],
      [],
    );
    const tables = laid.blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.markdown.split('\n')[4]).toBe(
      '| Jun 12, 2023 | Incoming payment |  | CA$ 992.49 | CA$ 10,393.89 |',
    );
  });
});

describe('liftWrappedValue: values wrapped in bottom-aligned cells', () => {
  /** A line of pieces: [text, left] on the line whose top is `top`, right-aligned at 528 if left < 0. */
  const line = (top: number, cells: readonly [string, number][]) =>
    joinRow(
      cells.map(([text, left]) => {
        const x = left < 0 ? 528 - text.length * 5 : left;
        return pieceOf([at(text, x, top)]) as LinePiece;
      }),
    );
  const texts = (lines: readonly (TextLine | undefined)[]) =>
    lines.map((l) => l?.cells.map((c) => c.text));

  it('moves the first line of a wrapped value, alone or beside other text, into its cell', () => {
    // ReportLab, VALIGN BOTTOM: a label/value table beside an address; a wrapped value's last
    // line is on the label's baseline, its first line above it.
    const alone = liftWrappedValue(
      line(214.7, [
        ['Sort Code', 300],
        ['43-75-56', -1],
      ]),
      line(230.3, [['1 November 2025 to 30', -1]]),
      line(242.9, [
        ['Period', 300],
        ['November 2025', -1],
      ]),
    );
    expect(texts([alone?.above, alone?.below])).toEqual([
      undefined,
      ['Period', '1 November 2025 to 30 November 2025'],
    ]);
    const beside = liftWrappedValue(
      line(150, [['accounts@royalcrownbank.example', 56]]),
      line(185, [
        ['Ingrid Garcia', 56],
        ['DE91 3928 1528 3441 1163', -1],
      ]),
      line(197.6, [
        ['1550 Commerce Blvd', 56],
        ['Account Number', 300],
        ['31', -1],
      ]),
    );
    expect(texts([beside?.above, beside?.below])).toEqual([
      ['Ingrid Garcia'],
      ['1550 Commerce Blvd', 'Account Number', 'DE91 3928 1528 3441 1163 31'],
    ]);
  });

  it('leaves a top-aligned second line, a row of labels and a column of figures alone', () => {
    // Top-aligned: "31" is nearer the row above it (its own) than the next row.
    const top = liftWrappedValue(
      line(185, [
        ['Account Number', 300],
        ['DE91 3928 1528 3441 1163', -1],
      ]),
      line(197.6, [['31', -1]]),
      line(214.7, [
        ['Sort Code', 300],
        ['43-75-56', -1],
      ]),
    );
    expect(top).toBeUndefined();
    // A label over a label: totals one under the other.
    const totals = liftWrappedValue(
      undefined,
      line(100, [
        ['Subtotal', 300],
        ['100.00', -1],
      ]),
      line(112, [
        ['Tax', 300],
        ['20.00', -1],
      ]),
    );
    expect(totals).toBeUndefined();
  });
});
