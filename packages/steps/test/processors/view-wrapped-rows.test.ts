/**
 * Tables whose rows a layout set on more than one line, read from hand-placed blocks (one block
 * per cell, as PDF text runs come): a header word wrapped inside itself, balances carried
 * forward among the rows, a description's end on a line of its own, a date's year under its
 * day, and a header cell over a column that a page's rows leave empty.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentView } from '../../src/processors/view/document-view.ts';
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
});
