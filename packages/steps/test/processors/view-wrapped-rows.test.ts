/**
 * Tables whose rows a layout set on more than one line, read from hand-placed blocks (one block
 * per cell, as PDF text runs come): a header word wrapped inside itself, balances carried
 * forward among the rows, a description's end on a line of its own, a date's year under its
 * day, and a header cell over a column that a page's rows leave empty.
 */
import { describe, expect, it } from 'vitest';
import { itemRows, mapColumns } from '../../src/processors/offline/extract-tables.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { readSchema } from '../../src/processors/schema-node.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentTable, DocumentView } from '../../src/processors/view/document-view.ts';
import { blocksPage } from '../fixtures/view/blocks-page.ts';

type Cell = readonly [text: string, left: number, right: number];

/** Blocks of rows: each row's cells at its top, 10 pt high. */
function rows(...lines: readonly (readonly [top: number, ...cells: Cell[]])[]) {
  return lines.flatMap(([top, ...cells]) =>
    cells.map(([text, left, right]) => ({
      text,
      box: [left, top, right, top + 10] as [number, number, number, number],
    })),
  );
}

const transactions = {
  type: 'object',
  properties: {
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          date: { type: ['string', 'null'], format: 'date' },
          description: { type: ['string', 'null'] },
          amount: { type: ['number', 'null'], description: 'negative for withdrawals' },
          balance: { type: ['number', 'null'] },
        },
      },
    },
  },
};

function items(view: DocumentView): unknown {
  return offlineExtract(view, transactions as never).value.transactions;
}

const header = (top: number): [number, ...Cell[]] => [
  top,
  ['Date', 50, 75],
  ['Details', 120, 160],
  ['Withdrawal', 300, 360],
  ['Credit', 405, 440],
  ['Balance', 490, 530],
];

describe('a statement whose rows a layout wrapped', () => {
  it('keeps its rows across a wrapped header word, balances carried forward and a wrapped description', () => {
    const view = buildDocumentView([
      {
        output: blocksPage(
          rows(
            header(100),
            [112, ['s', 354, 360]],
            [130, ['Balance brought forward', 120, 240], ['316.50', 500, 530]],
            [
              145,
              ['01.10.2024', 50, 100],
              ['Cheque 000184', 120, 200],
              ['487.73', 325, 360],
              ['-171.23', 490, 530],
            ],
            [
              160,
              ['03.10.2024', 50, 100],
              ['Cash deposit', 120, 180],
              ['798.34', 405, 440],
              ['627.11', 500, 530],
            ],
            [172, ['REF 4839201', 120, 180]],
            [
              190,
              ['04.10.2024', 50, 100],
              ['ATM withdrawal', 120, 200],
              ['100.00', 325, 360],
              ['527.11', 500, 530],
            ],
            [205, ['Carried forward', 120, 200], ['527.11', 500, 530]],
          ),
        ),
      },
    ]);
    expect(items(view)).toEqual([
      { date: '2024-10-01', description: 'Cheque 000184', amount: -487.73, balance: -171.23 },
      {
        date: '2024-10-03',
        description: 'Cash deposit REF 4839201',
        amount: 798.34,
        balance: 627.11,
      },
      { date: '2024-10-04', description: 'ATM withdrawal', amount: -100, balance: 527.11 },
    ]);
  });

  it('gives a header cell over no figure of the page its own empty column', () => {
    const view = buildDocumentView([
      {
        output: blocksPage(
          rows(header(100), [
            115,
            ['28.10.2024', 50, 100],
            ['Online transfer', 120, 200],
            ['336.88', 325, 360],
            ['14,618.22', 480, 530],
          ]),
        ),
      },
    ]);
    const table = view.pages[0]?.tables[0];
    expect(table?.header.map((c) => c.text)).toEqual([
      'Date',
      'Details',
      'Withdrawal',
      'Credit',
      'Balance',
    ]);
    expect(table?.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['28.10.2024', 'Online transfer', '336.88', '', '14,618.22'],
    ]);
  });

  it('heads its columns in order by a header of one run whose words have no boxes of their own', () => {
    const view = buildDocumentView([
      {
        output: blocksPage([
          {
            text: 'Date    Details    Withdrawal    Deposits    Balance',
            box: [60, 100, 535, 110],
          },
          ...rows(
            [
              120,
              ['1 January 2023', 60, 105],
              ['Standing order RENT', 132, 232],
              ['85,55', 360, 390],
              ['303,33', 505, 535],
            ],
            [
              135,
              ['3 January 2023', 60, 105],
              ['Interest paid', 132, 193],
              ['1 188,39', 420, 463],
              ['1 491,72', 490, 535],
            ],
          ),
        ]),
      },
    ]);
    expect(view.pages[0]?.tables[0]?.header.map((c) => c.text)).toEqual([
      'Date',
      'Details',
      'Withdrawal',
      'Deposits',
      'Balance',
    ]);
    expect(items(view)).toEqual([
      { date: '2023-01-01', description: 'Standing order RENT', amount: -85.55, balance: 303.33 },
      { date: '2023-01-03', description: 'Interest paid', amount: 1188.39, balance: 1491.72 },
    ]);
  });

  it('gives a date its year wrapped under it, and a figure its line under a currency', () => {
    // As Writer sets a card statement: the date's cell is narrow, so its year goes on a second
    // line, closer to its row than the next row is; some rows are one run with gaps, two amounts
    // a space apart; the last row's year is on the next page.
    const blocks = [
      { text: 'Period September 1, 2025 - September 30, 2025', box: [52, 70, 300, 80] },
      ...rows(
        [
          100,
          ['Posting Date Transaction', 52, 190],
          ['Withdrawals', 342, 406],
          ['Deposits', 437, 483],
          ['Balance', 518, 560],
        ],
        [
          118,
          ['September 1, Cash deposit', 52, 193],
          ['CA$ 1,838.29', 416, 483],
          ['CA$ 9,653.14', 493, 560],
        ],
        [129.5, ['2025', 52, 76]],
        [
          145,
          ['September 2, Direct debit CITY POWER', 52, 230],
          ['CA$ 106.19', 348, 406],
          ['CA$ 9,546.95', 493, 560],
        ],
        [156.5, ['2025', 52, 76]],
      ),
      {
        text: 'September 2, Salary ACME CORP    CA$ 196.21 CA$ 9,743.16',
        box: [52, 172, 560, 182],
      },
      ...rows(
        [183.5, ['2025', 52, 76]],
        [
          199,
          ['September 3, Interest paid', 52, 190],
          ['CA$ 2,606.91', 416, 483],
          ['CA$', 540, 560],
        ],
      ),
      { text: '2025    12,803.57', box: [52, 210.5, 560, 220.5] },
      ...rows([
        226,
        ['September 4, ATM withdrawal', 52, 190],
        ['CA$ 95.43', 348, 406],
        ['CA$ 12,708.14', 493, 560],
      ]),
      { text: 'Amount owed CA$ 12,708.14', box: [52, 237.5, 200, 247.5] },
      { text: 'Page 1', box: [530, 300, 560, 310] },
    ] as Parameters<typeof blocksPage>[0];
    // The page's markdown has a paragraph per block, not the gaps of layout text.
    const page = blocksPage(blocks);
    const [chunk] = page.chunks;
    const output = chunk
      ? { ...page, chunks: [{ ...chunk, content: blocks.map((b) => b.text).join(' ') }] }
      : page;
    expect(items(buildDocumentView([{ output }]))).toEqual([
      { date: '2025-09-01', description: 'Cash deposit', amount: 1838.29, balance: 9653.14 },
      {
        date: '2025-09-02',
        description: 'Direct debit CITY POWER',
        amount: -106.19,
        balance: 9546.95,
      },
      { date: '2025-09-02', description: 'Salary ACME CORP', amount: 196.21, balance: 9743.16 },
      { date: '2025-09-03', description: 'Interest paid', amount: 2606.91, balance: 12803.57 },
      { date: '2025-09-04', description: 'ATM withdrawal', amount: -95.43, balance: 12708.14 },
    ]);
  });
});

describe('a header cell over two columns of the rows', () => {
  it('heads the one it covers most, not a column of labels beside it', () => {
    const view = buildDocumentView([
      {
        output: blocksPage(
          rows(
            [
              100,
              ['Description', 60, 115],
              ['Unit Price', 334, 381],
              ['Quantity', 402, 443],
              ['Total', 511, 535],
            ],
            [
              116,
              ['Replacement filter cartridge', 60, 182],
              ['255.27', 350, 381],
              ['14', 431, 443],
              ["3'573.78", 497, 535],
            ],
            [
              130,
              ['Prices are quoted in Swiss francs and include tax', 56, 263],
              ['Sub-total', 297, 341],
              ["3'573.78", 493, 531],
            ],
          ),
        ),
      },
    ]);
    const table = view.pages[0]?.tables[0];
    expect(table?.header.map((c) => c.text)).toEqual([
      'Description',
      '',
      'Unit Price',
      'Quantity',
      'Total',
    ]);
    expect(table?.rows[0]?.map((c) => c.text)).toEqual([
      'Replacement filter cartridge',
      '',
      '255.27',
      '14',
      "3'573.78",
    ]);
  });
});

describe('a line under the last item', () => {
  it('is a total, not the item description wrapped, when it ends with an amount', () => {
    const region = { page: 1, pageWidth: 612, pageHeight: 792, polygon: [], ocrConfidence: null };
    const row = (...texts: string[]) => texts.map((text) => ({ text, region }));
    const table: DocumentTable = {
      page: 1,
      header: row('Item / Service', 'Quantity', 'Rate', 'Line Amount'),
      rows: [
        row('Stainless fasteners M6', '1', '73.02', '73.02'),
        row('Order Amount CA$ 6,054.87', '', '', ''),
      ],
    };
    const items = readSchema({
      type: 'object',
      properties: {
        description: { type: 'string' },
        quantity: { type: 'number' },
        unit_price: { type: 'number' },
        amount: { type: 'number' },
      },
    });
    const got = itemRows(table, mapColumns(items, table), 0).map((r) => r[0]?.text);
    expect(got).toEqual(['Stainless fasteners M6', 'Order Amount CA$ 6,054.87']);
  });
});

describe('a header set on two lines under a label and its value', () => {
  it('heads the items, the pair above it no header of theirs', () => {
    const text = [
      'Currency         EUR',
      'Item             Line',
      '                 Amount',
      '3 x Milk 1L      13,80',
      'Coffee            9,58',
      'Total            23,38',
    ].join('\n');
    const table = buildDocumentView([{ output: textToParseOutput([text]) }]).pages[0]?.tables[0];
    expect(table?.header.map((c) => c.text)).toEqual(['Item', 'Line Amount']);
    expect(table?.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['3 x Milk 1L', '13,80'],
      ['Coffee', '9,58'],
    ]);
  });
});

describe('an item whose name a till or a narrow column wrapped', () => {
  const goods = {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            description: { type: ['string', 'null'] },
            quantity: { type: ['number', 'null'] },
            amount: { type: ['number', 'null'] },
          },
        },
      },
    },
  };
  const extracted = (blocks: Parameters<typeof blocksPage>[0]) =>
    offlineExtract(buildDocumentView([{ output: blocksPage(blocks) }]), goods as never).value.items;

  // With a tax code after each amount the rows have a cell more than the header (the table is
  // read by its columns' x); without, as many (read cell by cell).
  it.each([
    ['with', [['A', 200, 205]] as Cell[]],
    ['without', [] as Cell[]],
  ])('gives a row the first line of its name, set over its figures (%s tax codes)', (_, code) => {
    expect(
      extracted([
        ...rows(
          [100, ['Item', 18, 40], ['Qty', 140, 155], ['Total', 175, 195]],
          [115, ['Milk 1L', 18, 60], ['1', 141, 146], ['13.74', 173, 194], ...code],
          [130, ['Paracetamol 500mg', 18, 110], ['1', 141, 146], ['3.48', 175, 194], ...code],
        ),
        // One block of two lines; the row's figures are set beside its second line.
        { text: 'Semi skimmed British\nmilk 2 litre bottle', box: [18, 145, 106, 165] },
        ...rows(
          [152, ['2', 141, 146], ['31.40', 173, 194], ...code],
          [175, ['Subtotal', 18, 60], ['48.62', 170, 194]],
        ),
      ]),
    ).toEqual([
      { description: 'Milk 1L', quantity: 1, amount: 13.74 },
      { description: 'Paracetamol 500mg', quantity: 1, amount: 3.48 },
      { description: 'Semi skimmed British milk 2 litre bottle', quantity: 2, amount: 31.4 },
    ]);
  });

  it('keeps the lines of a name wrapped around its amount in a list without a header', () => {
    expect(
      extracted(
        rows(
          [100, ['Coffee', 18, 60], ['3.50', 170, 194]],
          [116, ['Extra virgin olive', 18, 110]],
          [127.5, ['oil cold pressed', 18, 100], ['11.14', 165, 194]],
          [139, ['750ml', 18, 50]],
          [155, ['Cappuccino', 18, 80], ['5.59', 170, 194]],
          [171, ['Subtotal', 18, 60], ['20.23', 165, 194]],
        ),
      ),
    ).toEqual([
      { description: 'Coffee', quantity: 1, amount: 3.5 },
      { description: 'Extra virgin olive oil cold pressed 750ml', quantity: 1, amount: 11.14 },
      { description: 'Cappuccino', quantity: 1, amount: 5.59 },
    ]);
  });
});
