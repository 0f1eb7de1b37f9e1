import { figureColumns, withTexts } from './figure-columns.ts';
import { cropGray, type GrayImage } from './gray-image.ts';
import { type OcrPagePx, type OcrWordPx, recognizeParts } from './ocr-pool.ts';

/** Words read with less confidence than this (0..100) are doubtful. */
const DOUBT = 70;

/** Fewest figures that make a column whose doubtful words are read again as figures. */
const MIN_FIGURES = 3;

/** Most words read again on one page: each costs a small recognition. */
const MAX_WORDS = 24;

/** Words of at most this many characters can be a figure read as letters (`x}` for `1`). */
const MAX_GARBLED = 3;

/**
 * Margin around a word's box when it is cut out, in word heights: more above and below (the
 * word's box may clip a digit) than across, where the next column can be close.
 */
const MARGIN = { across: 0.15, down: 0.3 };

/** A figure as the re-reading may give it: digits, with a point or commas between them. */
const FIGURE = /^\d[\d.,]*$/;

/**
 * The doubtful words of a page's figure columns: short words without a digit, read with little
 * confidence, that sit in a column of {@link MIN_FIGURES} figures or more (a quantity `1` read
 * as `x}` where a speck touched it). At most {@link MAX_WORDS}, the least confident first.
 * Figures read doubtfully are not read again: with only digits allowed, tesseract reads a
 * figure's digits no better than with every character (`44` for `11` stays `44` or turns into
 * another wrong figure), so a re-read could only trade one wrong figure for another.
 */
export function doubtfulFigures(page: OcrPagePx): OcrWordPx[] {
  const { columns, tolerance } = figureColumns(page);
  const tables = columns.filter((column) => column.length >= MIN_FIGURES);
  if (tables.length === 0) return [];
  const inColumn = (word: OcrWordPx) =>
    tables.some((column) => {
      const rights = column.map((w) => w.bbox.x1);
      const top = Math.min(...column.map((w) => w.bbox.y0));
      const bottom = Math.max(...column.map((w) => w.bbox.y1));
      // The column reaches a row further each way: its first or last figure may be the one.
      const row = (bottom - top) / column.length;
      return (
        word.bbox.x1 >= Math.min(...rights) - tolerance &&
        word.bbox.x1 <= Math.max(...rights) + tolerance &&
        word.bbox.y0 >= top - row - tolerance &&
        word.bbox.y1 <= bottom + row + tolerance
      );
    });
  return page.paragraphs
    .flatMap((paragraph) => paragraph.lines.flat())
    .filter(
      (word) =>
        word.confidence < DOUBT &&
        word.text.length <= MAX_GARBLED &&
        !/\d/.test(word.text) &&
        inColumn(word),
    )
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, MAX_WORDS);
}

/**
 * Reads the doubtful words of the page's figure columns again (see {@link doubtfulFigures}),
 * each cut out of `image` and recognised as one line of digits, points and commas; a re-read
 * that gives a figure more confidently than the page did replaces the word's text. A table's
 * figures are what extraction needs most and what a scan's specks garble most.
 */
export async function rereadFigures(
  page: OcrPagePx,
  image: GrayImage,
  dpi: number,
): Promise<OcrPagePx> {
  const doubtful = doubtfulFigures(page);
  if (doubtful.length === 0) return page;
  const crops = doubtful.map((word) => {
    const height = word.bbox.y1 - word.bbox.y0;
    return cropGray(image, {
      x0: word.bbox.x0 - MARGIN.across * height,
      y0: word.bbox.y0 - MARGIN.down * height,
      x1: word.bbox.x1 + MARGIN.across * height,
      y1: word.bbox.y1 + MARGIN.down * height,
    });
  });
  const reads = (await recognizeParts(crops, dpi, 'figure')).map((part) => ({
    text: part.paragraphs.flatMap((p) => p.lines.flat().map((word) => word.text)).join(''),
    confidence: part.meanConfidence,
  }));
  const texts = new Map<OcrWordPx, string>();
  doubtful.forEach((word, i) => {
    const read = reads[i];
    if (read && FIGURE.test(read.text) && read.confidence > word.confidence)
      texts.set(word, read.text);
  });
  return withTexts(page, texts);
}
