import { figureColumns, isFigure, median, withTexts } from './figure-columns.ts';
import { cropGray, type GrayImage } from './gray-image.ts';
import {
  type OcrPagePx,
  type OcrWordPx,
  recognizeParts,
  recognizePartsInEnglish,
} from './ocr-pool.ts';

/** Words read with less confidence than this (0..100) are doubtful. */
const DOUBT = 70;

/** A word taller than this many times its column's median figure height has a speck on it. */
const SPECKED = 1.4;

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
 * confidence or taller than the column's figures (see {@link SPECKED}), that sit in a column of
 * {@link MIN_FIGURES} figures or more (a quantity `1` read as `x}` where a speck touched it). At most {@link MAX_WORDS}, the least confident first.
 * Figures read doubtfully are not read again: with only digits allowed, tesseract reads a
 * figure's digits no better than with every character (`44` for `11` stays `44` or turns into
 * another wrong figure), so a re-read could only trade one wrong figure for another.
 */
export function doubtfulFigures(page: OcrPagePx): OcrWordPx[] {
  const { columns, tolerance } = figureColumns(page);
  const tables = columns.filter((column) => column.length >= MIN_FIGURES);
  if (tables.length === 0) return [];
  const column = (word: OcrWordPx) =>
    tables.find((column) => {
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
  // A word much taller than its column's figures has a speck on it: doubtful however
  // confidently it was read (`aß` for a `1` with a speck below, at 85).
  const doubtful = (word: OcrWordPx, figures: readonly OcrWordPx[]) =>
    word.confidence < DOUBT ||
    word.bbox.y1 - word.bbox.y0 > SPECKED * median(figures.map((w) => w.bbox.y1 - w.bbox.y0));
  return page.paragraphs
    .flatMap((paragraph) => paragraph.lines.flat())
    .filter((word) => {
      if (word.text.length > MAX_GARBLED || /\d/.test(word.text)) return false;
      const figures = column(word);
      return figures !== undefined && doubtful(word, figures);
    })
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
  const reads = await recognizeParts(
    doubtful.map((word) => cropWord(image, word)),
    dpi,
    'figure',
  );
  return withBetterReads(page, doubtful, reads, (text) => FIGURE.test(text));
}

/** `word` cut out of `image` with a {@link MARGIN} around it. */
function cropWord(image: GrayImage, word: OcrWordPx): GrayImage {
  const height = word.bbox.y1 - word.bbox.y0;
  return cropGray(image, {
    x0: word.bbox.x0 - MARGIN.across * height,
    y0: word.bbox.y0 - MARGIN.down * height,
    x1: word.bbox.x1 + MARGIN.across * height,
    y1: word.bbox.y1 + MARGIN.down * height,
  });
}

/**
 * The page with each of `words` reading as its part read again (`reads`, in the same order)
 * where that read is `fit` and more confident than the page's.
 */
function withBetterReads(
  page: OcrPagePx,
  words: readonly OcrWordPx[],
  reads: readonly OcrPagePx[],
  fit: (text: string) => boolean,
): OcrPagePx {
  const texts = new Map<OcrWordPx, string>();
  words.forEach((word, i) => {
    const read = reads[i];
    if (!read) return;
    const text = read.paragraphs.flatMap((p) => p.lines.flat().map((w) => w.text)).join('');
    if (fit(text) && read.meanConfidence > word.confidence) texts.set(word, text);
  });
  return withTexts(page, texts);
}

/** A label whose figure a reader checks first: a total, a subtotal, a balance, an amount due. */
const TOTAL_LABEL = /total|balance|amount|due|tax|vat/i;

/**
 * The figures worth a second reading with English's model alone: figures read with little
 * confidence, and every figure right of a total's label on its row (`Subtotal … 18.92`; page
 * layout often reads the label and its figure as different blocks). At most
 * {@link MAX_WORDS}, the least confident first.
 */
export function figuresToCheck(page: OcrPagePx): OcrWordPx[] {
  const all = page.paragraphs.flatMap((p) => p.lines.flat());
  const labels = all.filter((word) => TOTAL_LABEL.test(word.text));
  const middle = (word: OcrWordPx) => (word.bbox.y0 + word.bbox.y1) / 2;
  const labelled = (word: OcrWordPx) =>
    labels.some(
      (label) =>
        label.bbox.x1 <= word.bbox.x0 &&
        Math.abs(middle(label) - middle(word)) <= (word.bbox.y1 - word.bbox.y0) / 2,
    );
  return all
    .filter((word) => isFigure(word.text) && (word.confidence < DOUBT || labelled(word)))
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, MAX_WORDS);
}

/**
 * Reads the figures of {@link figuresToCheck} again with English's model alone, when the page
 * was read with the German model beside it: that model reads words English's model lacks
 * letters for, and now and then a figure worse (a point as a comma, a digit as another). Each
 * word keeps the more confident of the two readings, when English's is a figure.
 */
export async function rereadFiguresInEnglish(
  page: OcrPagePx,
  image: GrayImage,
  dpi: number,
): Promise<OcrPagePx> {
  const figures = figuresToCheck(page);
  if (figures.length === 0) return page;
  const reads = await recognizePartsInEnglish(
    figures.map((word) => cropWord(image, word)),
    dpi,
  );
  return reads ? withBetterReads(page, figures, reads, isFigure) : page;
}
