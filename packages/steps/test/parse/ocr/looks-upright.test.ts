import { describe, expect, it } from 'vitest';
import { looksUpright } from '../../../src/parse/ocr/looks-upright.ts';
import type { OcrPagePx } from '../../../src/parse/ocr/ocr-pool.ts';

function page(fields: Partial<OcrPagePx>): OcrPagePx {
  return { paragraphs: [], words: 128, meanConfidence: 94, lines: 30, verticalLines: 0, ...fields };
}

// Figures from real recognitions of the same report page (parse-ocr.test.ts reads them end to end).
describe('looksUpright', () => {
  it('accepts a clean upright page (about 94 mean confidence, horizontal lines)', () => {
    expect(looksUpright(page({}))).toBe(true);
  });

  it('rejects a page turned 180° or 270° (garbage at about 38)', () => {
    expect(looksUpright(page({ meanConfidence: 39 }))).toBe(false);
    expect(looksUpright(page({ meanConfidence: 84.9 }))).toBe(false);
  });

  it('rejects a page turned 90° even when read confidently along vertical lines', () => {
    expect(looksUpright(page({ verticalLines: 30 }))).toBe(false);
    expect(looksUpright(page({ verticalLines: 4 }))).toBe(false);
    expect(looksUpright(page({ verticalLines: 3 }))).toBe(true);
  });

  it('leaves pages with few words to OSD', () => {
    expect(looksUpright(page({ words: 9, lines: 2 }))).toBe(false);
    expect(looksUpright(page({ words: 0, lines: 0, meanConfidence: 0 }))).toBe(false);
    expect(looksUpright(page({ words: 10, lines: 2 }))).toBe(true);
  });
});
