import { describe, expect, it } from 'vitest';
import { dropSpecks } from '../../../src/parse/ocr/drop-specks.ts';
import type { OcrPagePx, OcrWordPx } from '../../../src/parse/ocr/ocr-pool.ts';

/** A word at `x0` of `width` × `height` pixels, its top at `top`. */
function word(text: string, x0: number, width: number, height = 30, top = 100): OcrWordPx {
  return { text, confidence: 80, bbox: { x0, y0: top, x1: x0 + width, y1: top + height } };
}

function page(lines: readonly (readonly OcrWordPx[])[][]): OcrPagePx {
  return {
    paragraphs: lines.map((paragraph) => ({
      lines: paragraph,
      bbox: { x0: 0, y0: 0, x1: 1000, y1: 1000 },
    })),
    words: lines.flat(2).length,
    meanConfidence: 80,
    lines: lines.flat().length,
    verticalLines: 0,
  };
}

const texts = (read: OcrPagePx) =>
  read.paragraphs.map((p) => p.lines.map((l) => l.map((w) => w.text).join(' ')));

describe('dropSpecks', () => {
  it('drops words far smaller than their paragraph’s words, and lines left empty', () => {
    const read = dropSpecks(
      page([
        // Dust after a closing read as an asterisk: 6 × 6 pixels beside 30-pixel words.
        [[word('Yours', 0, 110), word('sincerely,', 120, 200), word('*', 340, 6, 6, 110)]],
        [
          [word('Server', 0, 120), word('rack', 130, 90), word('7', 400, 5, 5, 112)],
          [word('{', 420, 4, 4)],
          [word('Hydraulic', 0, 180), word('hose', 190, 90)],
        ],
      ]),
    );
    expect(texts(read)).toEqual([['Yours sincerely,'], ['Server rack', 'Hydraulic hose']]);
  });

  it('keeps small marks of text: a bullet, a dash, a rule character, a lone 1', () => {
    const marks = page([
      [
        [word('•', 0, 14, 14, 108), word('Item', 20, 80)],
        [word('A', 0, 20), word('–', 30, 18, 3, 115), word('B', 60, 20)],
        [word('Street', 0, 110), word('|', 120, 3, 36), word('www.example.com', 130, 300)],
        [word('1', 0, 11, 28), word('Bananas', 40, 150)],
      ],
    ]);
    expect(dropSpecks(marks)).toBe(marks);
  });
});
