import { median } from './figure-columns.ts';
import type { OcrPagePx, OcrParagraphPx, OcrWordPx } from './ocr-pool.ts';

/**
 * A word whose box is at most this share of its paragraph's median word height, across and
 * down, is a speck: dust or a noise blot that OCR read as `*`, `-`, `{`, `.` or even `7`. The
 * smallest mark of real text that stands as a word alone (a bullet, a dash, an asterisk) is
 * about half the height of the words beside it; a lone point or comma belongs to a word.
 */
const MAX_SPECK = 0.3;

/**
 * The page without its specks: words much smaller than the words of their paragraph (see
 * {@link MAX_SPECK}), which scans' dust and noise make (`Yours sincerely, *`, a `7` between two
 * table columns). Lines and paragraphs left without words go too.
 */
export function dropSpecks(page: OcrPagePx): OcrPagePx {
  let dropped = false;
  const paragraphs: OcrParagraphPx[] = [];
  for (const paragraph of page.paragraphs) {
    const words = paragraph.lines.flat();
    const limit = MAX_SPECK * median(words.map((word) => word.bbox.y1 - word.bbox.y0));
    const isSpeck = (word: OcrWordPx) =>
      word.bbox.x1 - word.bbox.x0 <= limit && word.bbox.y1 - word.bbox.y0 <= limit;
    if (!words.some(isSpeck)) {
      paragraphs.push(paragraph);
      continue;
    }
    dropped = true;
    const lines = paragraph.lines
      .map((line) => line.filter((word) => !isSpeck(word)))
      .filter((line) => line.length > 0);
    if (lines.length > 0) paragraphs.push({ ...paragraph, lines });
  }
  return dropped ? { ...page, paragraphs } : page;
}
