/**
 * A scan's OCR block carries its words' boxes when `returnOcr.words` is asked: the view lines
 * its words up by those boxes, so that a scanned invoice's items are a table and its line items
 * are extracted. Inputs are built by the test (words placed at 6 pt per character).
 */
import { describe, expect, it } from 'vitest';
import type { Block, Chunk, OcrWord, ParseRunOutput } from '../../src/parse/parse-output.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import { blocksPage } from '../fixtures/view/blocks-page.ts';

/** OCR words of monospaced rows: each non-space run of `row` is a word at 6 pt per character. */
function words(rows: readonly string[], top = 100): OcrWord[] {
  return rows.flatMap((row, r) =>
    [...row.matchAll(/\S+/g)].map((m) => ({
      text: m[0],
      confidence: 0.9,
      boundingBox: {
        left: 50 + m.index * 6,
        top: top + r * 14,
        right: 50 + (m.index + m[0].length) * 6,
        bottom: top + r * 14 + 10,
      },
    })),
  );
}

/** A one-page parse output of one OCR'd block whose text joins each row's words by a space. */
function scanned(rows: readonly string[], withWords: boolean): ParseRunOutput {
  const output = blocksPage([
    { text: rows.map((r) => r.trim().split(/\s+/).join(' ')).join('\n'), box: [50, 100, 560, 400] },
  ]);
  const [chunk] = output.chunks;
  const block = chunk?.blocks[0] as Block;
  const metadata = {
    ...block.metadata,
    minOcrConfidence: 0.9,
    avgOcrConfidence: 0.9,
    ...(withWords ? { ocrWords: words(rows) } : {}),
  };
  return { ...output, chunks: [{ ...(chunk as Chunk), blocks: [{ ...block, metadata }] }] };
}

const rows = [
  'Item                    Qty     Rate       Amount',
  'Shipping & handling       2   349.09       698.18',
  'Printer toner black      24    52.10     1,250.40',
  'Server rack 42U           1   142.06       142.06',
  'Subtotal                                 2,090.64',
];

const schema = {
  type: 'object',
  properties: {
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          quantity: { type: 'number' },
          unit_price: { type: 'number' },
          amount: { type: 'number' },
        },
      },
    },
  },
};

describe('OCR lines from word boxes', () => {
  it('reads the columns of a scanned table from the gaps between its words', () => {
    const view = buildDocumentView([{ output: scanned(rows, true) }]);
    const page = view.pages[0];
    expect(page?.lines[1]?.text).toBe('Shipping & handling    2    349.09    698.18');
    expect(offlineExtract(view, schema).value).toEqual({
      line_items: [
        { description: 'Shipping & handling', quantity: 2, unit_price: 349.09, amount: 698.18 },
        { description: 'Printer toner black', quantity: 24, unit_price: 52.1, amount: 1250.4 },
        { description: 'Server rack 42U', quantity: 1, unit_price: 142.06, amount: 142.06 },
      ],
    });
  });

  it('reads the text as plain lines when the block has no word boxes', () => {
    const view = buildDocumentView([{ output: scanned(rows, false) }]);
    expect(view.pages[0]?.lines[1]?.text).toBe('Shipping & handling 2 349.09 698.18');
    expect(view.pages[0]?.tables).toEqual([]);
  });

  it('ignores word boxes that do not spell the text', () => {
    const output = scanned(rows, true);
    const [chunk] = output.chunks;
    const block = chunk?.blocks[0] as Block;
    const wrong = { ...block, content: block.content.replace('Server', 'Sever') };
    const view = buildDocumentView([
      { output: { ...output, chunks: [{ ...(chunk as Chunk), blocks: [wrong] }] } },
    ]);
    expect(view.pages[0]?.lines[3]?.text).toBe('Sever rack 42U 1 142.06 142.06');
  });

  it('leaves out specks OCR read as punctuation, and reads back figures it read with a colon or a speck', () => {
    // A speck under the header (`¥` on a line of its own), a stray `.` and `{` between cells, and
    // a decimal point read as a colon: the rows (one without a quantity) still form one table.
    const noisy = [
      'Item                    Qty     Rate       Amount',
      '                  ¥',
      'Shipping & handling       2   349.09   {   698.18',
      'Printer toner black      24 .  52:10     1,250.40',
      'Server rack 42U           1;  142.06       142.06',
      'Design review                 120.00       120.00',
      'Total:                                   2,210.64',
    ];
    const view = buildDocumentView([{ output: scanned(noisy, true) }]);
    const page = view.pages[0];
    expect(page?.lines.map((l) => l.text)).not.toContain('¥');
    expect(page?.lines[1]?.text).toBe('Shipping & handling    2    349.09    698.18');
    const items = offlineExtract(view, schema).value as { line_items: unknown[] };
    // The figures OCR misread are read back: `52:10` is 52.10, `1;` is 1.
    expect(items.line_items).toEqual([
      { description: 'Shipping & handling', quantity: 2, unit_price: 349.09, amount: 698.18 },
      { description: 'Printer toner black', quantity: 24, unit_price: 52.1, amount: 1250.4 },
      { description: 'Server rack 42U', quantity: 1, unit_price: 142.06, amount: 142.06 },
      { description: 'Design review', quantity: null, unit_price: 120, amount: 120 },
    ]);
  });

  it("settles a scanned quantity OCR misread by the row's own quantity × unit price = amount", () => {
    const misread = [
      'Item                    Qty     Rate       Amount',
      'Shipping & handling       2   349.09       698.18',
      'Printer toner black      44    52.10       573.10',
      'Server rack 42U           3   142.06       142.06',
      'Subtotal                                 1,413.34',
    ];
    const items = offlineExtract(buildDocumentView([{ output: scanned(misread, true) }]), schema)
      .value as { line_items: { quantity: number }[] };
    // `44` is the one reading of `11` that makes 52.10 × q = 573.10; `3` has none that gives
    // 142.06 (no digit OCR takes for a 3 makes a 1), so it stays as read.
    expect(items.line_items.map((item) => item.quantity)).toEqual([2, 11, 3]);
  });

  it('leaves the quantities of a table that was not scanned as they read', () => {
    const typed = blocksPage([
      {
        text: [
          'Item | Qty | Rate | Amount',
          'Shipping & handling | 2 | 349.09 | 698.18',
          'Printer toner black | 44 | 52.10 | 573.10',
          'Server rack 42U | 1 | 142.06 | 142.06',
        ].join('\n'),
        box: [50, 100, 560, 400],
      },
    ]);
    const items = offlineExtract(buildDocumentView([{ output: typed }]), schema).value as {
      line_items: { quantity: number }[];
    };
    expect(items.line_items.map((item) => item.quantity)).toEqual([2, 44, 1]);
  });
});
