import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { GrayImage } from '../../../src/parse/ocr/gray-image.ts';
import {
  closeOcrPool,
  type OcrPagePx,
  type OcrWordPx,
  recognize,
} from '../../../src/parse/ocr/ocr-pool.ts';
import { rereadColumns } from '../../../src/parse/ocr/reread-columns.ts';
import { rereadEmptyColumns } from '../../../src/parse/ocr/reread-empty-columns.ts';
import {
  doubtfulFigures,
  figuresToCheck,
  rereadFigures,
  rereadFiguresInEnglish,
} from '../../../src/parse/ocr/reread-figures.ts';
import { makeLinesScanPng } from '../../fixtures/parse/make-scan.ts';

afterAll(async () => {
  await closeOcrPool();
});

/** A table of quantities and amounts, as a scan at 200 DPI. */
const ROWS: readonly (readonly [string, string, string])[] = [
  ['Bananas', '1', '11.88'],
  ['Orange juice', '2', '4.82'],
  ['Notebook', '1', '13.21'],
  ['Batteries AA', '3', '21.24'],
  ['Bagel', '1', '4.23'],
];

async function tableScan(header?: readonly [string, string, string]): Promise<GrayImage> {
  const png = await makeLinesScanPng(
    (header ? [header, ...ROWS] : ROWS).map(([item, qty, amount]) => [
      [item, 72],
      [qty, 300],
      [amount, 400],
    ]),
  );
  const { data, info } = await sharp(png)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** `page` with `word` read as `text` at `confidence` instead. */
function misread(page: OcrPagePx, word: OcrWordPx, text: string, confidence: number): OcrPagePx {
  return {
    ...page,
    paragraphs: page.paragraphs.map((p) => ({
      ...p,
      lines: p.lines.map((line) => line.map((w) => (w === word ? { ...w, text, confidence } : w))),
    })),
  };
}

const words = (page: OcrPagePx) => page.paragraphs.flatMap((p) => p.lines.flat());

/** The words of the row whose top is near `top`, left to right. */
const row = (page: OcrPagePx, top: number) =>
  words(page)
    .filter((w) => Math.abs(w.bbox.y0 - top) < 10)
    .sort((a, b) => a.bbox.x0 - b.bbox.x0)
    .map((w) => w.text);

describe('rereadColumns', { timeout: 120_000 }, () => {
  it('reads a narrow column of quantities, taken for vertical text, again as rows', async () => {
    const image = await tableScan();
    const page = await recognize(image, 200);
    // Automatic layout strings the quantities 1, 2, 1, 3, 1 into one vertical line.
    expect(page.verticalLines).toBeGreaterThanOrEqual(1);
    const rows = await rereadColumns(page, image, 200);
    expect(rows.verticalLines).toBe(0);
    const tops = words(rows)
      .filter((w) => /^\d+\.\d\d$/.test(w.text))
      .map((w) => w.bbox.y0);
    expect(tops.map((top) => row(rows, top))).toEqual(
      ROWS.map((r) => r.flatMap((cell) => cell.split(' '))),
    );
  });

  it('leaves a page without vertical lines as it is', async () => {
    const image = await tableScan();
    const page = await recognize(image, 200);
    const upright = { ...page, vertical: [], verticalLines: 0 };
    expect(await rereadColumns(upright, image, 200)).toBe(upright);
  });
});

describe('rereadFigures', { timeout: 120_000 }, () => {
  it('reads a garbled quantity of a figure column again as a figure', async () => {
    const image = await tableScan();
    const page = await rereadColumns(await recognize(image, 200), image, 200);
    const quantities = words(page).filter((w) => w.text === '1');
    expect(quantities.length).toBeGreaterThanOrEqual(2);
    const [one] = quantities;
    if (!one) throw new Error('no quantity');
    // What a speck on the `1` makes of it in a real scan.
    const garbled = misread(page, one, 'x}', 30);
    expect(doubtfulFigures(garbled).map((w) => w.text)).toEqual(['x}']);
    const reread = await rereadFigures(garbled, image, 200);
    expect(row(reread, one.bbox.y0)).toEqual(['Bananas', '1', '11.88']);
  });

  it('reads a confidently garbled quantity again when a speck made it taller than its column', async () => {
    const image = await tableScan();
    const page = await rereadColumns(await recognize(image, 200), image, 200);
    const [one] = words(page).filter((w) => w.text === '1');
    if (!one) throw new Error('no quantity');
    // A speck under the `1`: its box reaches down half as far again, and it reads `aß` at 85.
    const tall = { ...one.bbox, y1: one.bbox.y1 + (one.bbox.y1 - one.bbox.y0) * 0.7 };
    const specked: OcrPagePx = {
      ...page,
      paragraphs: page.paragraphs.map((p) => ({
        ...p,
        lines: p.lines.map((line) =>
          line.map((w) => (w === one ? { ...w, text: 'aß', confidence: 85, bbox: tall } : w)),
        ),
      })),
    };
    expect(doubtfulFigures(specked).map((w) => w.text)).toEqual(['aß']);
    // As tall as its column's figures, the same confident reading is left alone.
    expect(doubtfulFigures(misread(page, one, 'aß', 85))).toEqual([]);
    const reread = await rereadFigures(specked, image, 200);
    expect(row(reread, one.bbox.y0)).toEqual(['Bananas', '1', '11.88']);
  });

  it('reads again neither confident words, words outside figure columns, nor figures', async () => {
    const image = await tableScan();
    const page = await rereadColumns(await recognize(image, 200), image, 200);
    const all = words(page);
    const item = all.find((w) => w.text === 'Bagel');
    const amount = all.find((w) => w.text === '13.21');
    if (!item || !amount) throw new Error('table not read');
    // A short doubtful word in the items column, a doubtful figure in the amounts column.
    const doubtful = misread(misread(page, item, 'Ba', 20), amount, '13.24', 20);
    expect(doubtfulFigures(doubtful)).toEqual([]);
    expect(await rereadFigures(doubtful, image, 200)).toBe(doubtful);
  });
});

/** A receipt's last lines: items, then a subtotal, a tax and a total under them. */
const RECEIPT: readonly (readonly (readonly [string, number])[])[] = [
  [
    ['Coffee beans', 72],
    ['12.40', 400],
  ],
  [
    ['Oat milk', 72],
    ['6.52', 400],
  ],
  [
    ['Subtotal', 72],
    ['18.92', 400],
  ],
  [
    ['Tax', 72],
    ['1.51', 400],
  ],
  [
    ['Total', 72],
    ['173.28', 400],
  ],
];

async function receiptScan(): Promise<GrayImage> {
  const png = await makeLinesScanPng(RECEIPT);
  const { data, info } = await sharp(png)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The words of `page` on the row of `word`, left to right. */
const rowOf = (page: OcrPagePx, word: OcrWordPx) => row(page, word.bbox.y0);

describe('rereadFiguresInEnglish', { timeout: 120_000 }, () => {
  it('reads the figures right of total labels and doubtful figures again with English alone', async () => {
    const image = await receiptScan();
    const page = await recognize(image, 200);
    const all = words(page);
    const total = all.find((w) => w.text === '173.28');
    const item = all.find((w) => w.text === '12.40');
    if (!total || !item) throw new Error('receipt not read');
    // What the German model beside English made of a total on a scan: a digit read wrong.
    const wrong = misread(page, total, '173.26', 55);
    const checked = figuresToCheck(wrong);
    expect(checked[0]?.text).toBe('173.26');
    expect(checked).toHaveLength(3);
    // A confident figure without a total's label on its row is not read again.
    expect(checked).not.toContain(item);
    const reread = await rereadFiguresInEnglish(wrong, image, 200);
    expect(rowOf(reread, total)).toEqual(['Total', '173.28']);
    // The German model drops the tax's point even on this clean page ('151'); English does not.
    expect(words(reread).map((w) => w.text)).toEqual(
      expect.arrayContaining(['18.92', '1.51', '12.40', '6.52']),
    );
  });

  it('keeps readings more confident than English alone reads the part', async () => {
    const image = await receiptScan();
    const page = await recognize(image, 200);
    const sure = figuresToCheck(page).reduce((p, w) => misread(p, w, w.text, 100), page);
    expect(await rereadFiguresInEnglish(sure, image, 200)).toBe(sure);
  });
});

describe('rereadEmptyColumns', { timeout: 120_000 }, () => {
  /** The table under a header row, read, with its narrow columns read as rows. */
  async function headedTable(): Promise<{ image: GrayImage; page: OcrPagePx }> {
    const image = await tableScan(['Item', 'Qty', 'Amount']);
    const page = await rereadColumns(await recognize(image, 200), image, 200);
    return { image, page };
  }

  it('reads a column left empty under its header again as rows', async () => {
    const { image, page } = await headedTable();
    const qty = words(page).find((w) => w.text === 'Qty');
    if (!qty) throw new Error('header not read');
    // What automatic layout does to a narrow column in some scans: it drops its figures but
    // one, leaving the header over an almost empty column.
    const under = (w: OcrWordPx) =>
      w !== qty && w.bbox.x1 > qty.bbox.x0 && w.bbox.x0 < qty.bbox.x1 && w.text !== '3';
    const dropped: OcrPagePx = {
      ...page,
      paragraphs: page.paragraphs.map((p) => ({
        ...p,
        lines: p.lines.map((line) => line.filter((w) => !under(w))).filter((l) => l.length > 0),
      })),
    };
    expect(words(dropped).filter((w) => /^\d$/.test(w.text))).toHaveLength(1);
    const filled = await rereadEmptyColumns(dropped, image, 200);
    const tops = words(filled)
      .filter((w) => /^\d+\.\d\d$/.test(w.text))
      .map((w) => w.bbox.y0);
    expect(tops.map((top) => row(filled, top))).toEqual(
      ROWS.map((r) => r.flatMap((cell) => cell.split(' '))),
    );
    // The quantity read before is not added twice.
    expect(words(filled).filter((w) => w.text === '3')).toHaveLength(1);
  });

  it('leaves a table whose columns were read as it is', async () => {
    const { image, page } = await headedTable();
    expect(words(page).filter((w) => /^\d$/.test(w.text))).toHaveLength(ROWS.length);
    expect(await rereadEmptyColumns(page, image, 200)).toBe(page);
  });
});
