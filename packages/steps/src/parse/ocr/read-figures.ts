import type { OcrPagePx, OcrParagraphPx, OcrWordPx } from './ocr-pool.ts';

/**
 * An amount as tables print it: digits with thousands groups and two decimals after a point
 * (`1,373.35`, `17.70`), a currency sign or code glued in front allowed (`CA$17.70`, `€8.00`).
 */
const AMOUNT = /^(\D*?)(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})$/;

/**
 * What OCR makes of such an amount when a speck or a blur changes its point: a colon, a
 * semicolon or a comma before the last two digits (`17:70`, `13;21`, `173,28`).
 */
const MISREAD_POINT = /^(\D*?)(\d{1,3}(?:,\d{3})*|\d+)[:;,](\d{2})$/;

/**
 * An amount whose point OCR lost altogether (`1321` for `13.21`): three to seven digits, alone.
 * Corrected only in a column where every other figure is an amount.
 */
const LOST_POINT = /^(\d{1,5})(\d{2})$/;

/** Fewest well-read amounts that make a column of amounts. */
const MIN_AMOUNTS = 3;

/** Share of a column's figures that must read as amounts for its odd ones to be corrected. */
const MIN_SHARE = 0.6;

/** Right edges within this many word heights of each other are one column. */
const ALIGN = 0.8;

interface Placed {
  readonly paragraph: number;
  readonly line: number;
  readonly index: number;
  readonly word: OcrWordPx;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A figure word: a digit in it, nothing but digits, separators and a leading sign or code. */
function isFigure(text: string): boolean {
  return /\d/.test(text) && /^\D{0,3}[\d.,:;]+$/.test(text);
}

/**
 * Reads the points of amounts in columns again. A word right-aligned with at least
 * {@link MIN_AMOUNTS} amounts (`1,373.35`), in a column whose figures mostly read as amounts,
 * gets its point back where OCR read a colon, a semicolon or a comma before the last two digits
 * (`17:70` becomes `17.70`), or its lost point where all the others are amounts (`1321`
 * becomes `13.21`). Times (`13:21` under `Time:`) and figures outside amount columns are
 * left as they are: only the column says that a colon was a point.
 */
export function readFigures(page: OcrPagePx): OcrPagePx {
  const figures: Placed[] = [];
  page.paragraphs.forEach((paragraph, p) => {
    paragraph.lines.forEach((line, l) => {
      line.forEach((word, index) => {
        if (isFigure(word.text)) figures.push({ paragraph: p, line: l, index, word });
      });
    });
  });
  if (figures.length < MIN_AMOUNTS) return page;
  const height = median(figures.map(({ word }) => word.bbox.y1 - word.bbox.y0));
  const tolerance = Math.max(2, ALIGN * height);
  // Columns: figures sorted by right edge, a new column where the edge jumps.
  const sorted = [...figures].sort((a, b) => a.word.bbox.x1 - b.word.bbox.x1);
  const columns: Placed[][] = [];
  for (const figure of sorted) {
    const column = columns.at(-1);
    const last = column?.at(-1);
    if (column && last && figure.word.bbox.x1 - last.word.bbox.x1 <= tolerance) column.push(figure);
    else columns.push([figure]);
  }
  const fixes = new Map<OcrWordPx, string>();
  for (const column of columns) {
    const amounts = column.filter(({ word }) => AMOUNT.test(word.text)).length;
    if (amounts < MIN_AMOUNTS || amounts < MIN_SHARE * column.length) continue;
    // The column's figures that are neither amounts nor amounts with a misread point.
    const odd: OcrWordPx[] = [];
    for (const { word } of column) {
      if (AMOUNT.test(word.text)) continue;
      const misread = MISREAD_POINT.exec(word.text);
      if (misread) fixes.set(word, `${misread[1]}${misread[2]}.${misread[3]}`);
      else odd.push(word);
    }
    // One figure without a point among amounts: an amount whose point was lost.
    const [only, ...more] = odd;
    if (only && more.length === 0 && LOST_POINT.test(only.text))
      fixes.set(only, only.text.replace(LOST_POINT, '$1.$2'));
  }
  if (fixes.size === 0) return page;
  const paragraphs: OcrParagraphPx[] = page.paragraphs.map((paragraph) => ({
    ...paragraph,
    lines: paragraph.lines.map((line) =>
      line.map((word) => {
        const text = fixes.get(word);
        return text === undefined ? word : { ...word, text };
      }),
    ),
  }));
  return { ...page, paragraphs };
}
