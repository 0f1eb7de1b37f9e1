import { describe, expect, it } from 'vitest';
import type { OcrPagePx, OcrWordPx } from '../../../src/parse/ocr/ocr-pool.ts';
import { readFigures } from '../../../src/parse/ocr/read-figures.ts';

/** A word `text` whose right edge is at `right`, on text line `row` (30 pixels apart, 20 high). */
function word(text: string, right: number, row: number): OcrWordPx {
  return {
    text,
    confidence: 90,
    bbox: { x0: right - 12 * text.length, y0: 100 + 30 * row, x1: right, y1: 120 + 30 * row },
  };
}

/** A page of one paragraph, one line per row of words. */
function page(rows: readonly (readonly OcrWordPx[])[]): OcrPagePx {
  return {
    paragraphs: [{ lines: rows, bbox: { x0: 0, y0: 0, x1: 1000, y1: 1000 } }],
    words: rows.flat().length,
    meanConfidence: 90,
    lines: rows.length,
    verticalLines: 0,
  };
}

const texts = (read: OcrPagePx) =>
  read.paragraphs.flatMap((p) => p.lines.map((l) => l.map((w) => w.text).join(' ')));

describe('readFigures', () => {
  it('gives back the point of amounts that a column of amounts says were misread', () => {
    const read = readFigures(
      page([
        [word('Time:', 80, 0), word('13:21', 150, 0)],
        [word('Bananas', 300, 1), word('11.88', 600, 1)],
        [word('Notebook', 300, 2), word('13:21', 598, 2)],
        [word('Sandwich', 300, 3), word('17;70', 603, 3)],
        [word('Bagel', 300, 4), word('1321', 600, 4)],
        [word('Fasteners', 300, 5), word('173,28', 601, 5)],
        [word('Paint', 300, 6), word('1,373.35', 600, 6)],
        [word('Gloves', 300, 7), word('7.08', 599, 7)],
        [word('Fuel', 300, 8), word('16.07', 600, 8)],
        [word('Toner', 300, 9), word('52.10', 600, 9)],
        [word('Bracket', 300, 10), word('397.20', 601, 10)],
        [word('Subtotal:', 300, 11), word('CA$129.92', 600, 11)],
      ]),
    );
    expect(texts(read)).toEqual([
      // A time beside its label, outside the column: left as it is.
      'Time: 13:21',
      'Bananas 11.88',
      'Notebook 13.21',
      'Sandwich 17.70',
      'Bagel 13.21',
      'Fasteners 173.28',
      'Paint 1,373.35',
      'Gloves 7.08',
      'Fuel 16.07',
      'Toner 52.10',
      'Bracket 397.20',
      'Subtotal: CA$129.92',
    ]);
  });

  it('leaves a column of times, and a column of few amounts, as they are', () => {
    const times = page([
      [word('Start', 200, 0), word('08:15', 500, 0)],
      [word('Break', 200, 1), word('12:30', 500, 1)],
      [word('End', 200, 2), word('17:45', 500, 2)],
      [word('Total', 200, 3), word('9.50', 500, 3)],
    ]);
    expect(readFigures(times)).toBe(times);
    const few = page([
      [word('Fee', 200, 0), word('12.50', 500, 0)],
      [word('Tax', 200, 1), word('2.50', 500, 1)],
      [word('Paid', 200, 2), word('15:00', 500, 2)],
    ]);
    expect(readFigures(few)).toBe(few);
  });

  it('restores a lost point only where every other figure of the column is an amount', () => {
    const mixed = page([
      [word('A', 200, 0), word('11.88', 500, 0)],
      [word('B', 200, 1), word('2.41', 500, 1)],
      [word('C', 200, 2), word('7.08', 500, 2)],
      [word('Qty', 200, 3), word('1500', 500, 3)],
      [word('Ref', 200, 4), word('2024', 500, 4)],
    ]);
    expect(texts(readFigures(mixed))).toContain('Qty 1500');
  });

  it('parts a day and a year that OCR joined at their comma after a month, and no number', () => {
    const read = readFigures(
      page([
        [word('Jan', 100, 0), word('7,2024', 200, 0), word('Opening', 400, 0)],
        [word('Feb', 100, 1), word('14,2024.', 200, 1)],
        [word('Total', 100, 2), word('1,2024', 200, 2), word('12,500', 300, 2)],
      ]),
    );
    expect(texts(read)).toEqual(['Jan 7, 2024 Opening', 'Feb 14, 2024.', 'Total 1,2024 12,500']);
    const [day, year] = read.paragraphs[0]?.lines[0]?.slice(1, 3) ?? [];
    expect(day?.bbox.x1).toBe(year?.bbox.x0);
    expect(day?.bbox.x0).toBe(200 - 12 * 6);
  });

  it('takes an odd decimal comma on a page of decimal points for a point, not on a page of commas', () => {
    const points = readFigures(
      page([
        [word('Subtotal', 100, 0), word('109.18', 600, 0)],
        [word('Tax', 100, 1), word('20,74', 300, 1)],
        [word('Total', 100, 2), word('129.92', 400, 2)],
        [word('Paid', 100, 3), word('CA$129.92', 700, 3)],
      ]),
    );
    expect(texts(points)).toContain('Tax 20.74');
    const commas = page([
      [word('Zwischensumme', 100, 0), word('109,18', 600, 0)],
      [word('MwSt', 100, 1), word('20,74', 600, 1)],
      [word('Summe', 100, 2), word('129,92', 600, 2)],
      [word('Kurs', 100, 3), word('1.25', 300, 3)],
    ]);
    expect(readFigures(commas)).toBe(commas);
  });
});
