import { figureColumns, withTexts } from './figure-columns.ts';
import type { OcrPagePx, OcrWordPx } from './ocr-pool.ts';

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

/**
 * A day and a year that OCR joined at the comma between them (`7,2024` of `Jan 7, 2024`),
 * parted again after a month's name (elsewhere `1,2024` may be a decimal comma's number).
 */
const DAY_YEAR = /^(\d{1,2},)((?:19|20)\d{2}[.,;]?)$/;

/** An English month's name, whole or shortened (`Jan`, `Sept.`, `January`). */
const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?$/i;

/** An amount with a decimal comma (`173,28`, `€12,50`): no thousands group of two digits. */
const COMMA_AMOUNT = /^(\D*?)(\d+),(\d{2})$/;

/** Amounts with a point a page needs, per amount with a comma, to take the commas for points. */
const POINTS_PER_COMMA = 3;

/** Fewest well-read amounts that make a column of amounts. */
const MIN_AMOUNTS = 3;

/** Share of a column's figures that must read as amounts for its odd ones to be corrected. */
const MIN_SHARE = 0.6;

/**
 * Reads the points of amounts in columns again. A word right-aligned with at least
 * {@link MIN_AMOUNTS} amounts (`1,373.35`), in a column whose figures mostly read as amounts,
 * gets its point back where OCR read a colon, a semicolon or a comma before the last two digits
 * (`17:70` becomes `17.70`), or its lost point where all the others are amounts (`1321`
 * becomes `13.21`). Times (`13:21` under `Time:`) and figures outside amount columns are
 * left as they are: only the column says that a colon was a point. An amount with a comma
 * (`173,28`) on a page whose amounts have points, three for each such comma or more, gets a
 * point wherever it stands. A day and a year joined at their comma (`7,2024`) are parted again.
 */
export function readFigures(page: OcrPagePx): OcrPagePx {
  return withAmountPoints(withDayYearSpaces(page));
}

/** The page with days and years joined at a comma (see {@link DAY_YEAR}) as two words. */
function withDayYearSpaces(page: OcrPagePx): OcrPagePx {
  if (!page.paragraphs.some((p) => p.lines.some((l) => l.some((w) => DAY_YEAR.test(w.text)))))
    return page;
  const split = (word: OcrWordPx, index: number, line: readonly OcrWordPx[]): OcrWordPx[] => {
    const parts = DAY_YEAR.exec(word.text);
    if (!parts?.[1] || !parts[2] || !MONTH.test(line[index - 1]?.text ?? '')) return [word];
    // The box is cut where the comma ends, by the share of characters before it.
    const { x0, x1 } = word.bbox;
    const cut = x0 + ((x1 - x0) * parts[1].length) / word.text.length;
    return [
      { ...word, text: parts[1], bbox: { ...word.bbox, x1: cut } },
      { ...word, text: parts[2], bbox: { ...word.bbox, x0: cut } },
    ];
  };
  return {
    ...page,
    paragraphs: page.paragraphs.map((p) => ({ ...p, lines: p.lines.map((l) => l.flatMap(split)) })),
  };
}

/** The page with the points of amounts in columns read again (see {@link readFigures}). */
function withAmountPoints(page: OcrPagePx): OcrPagePx {
  const { columns } = figureColumns(page);
  const fixes = new Map<OcrWordPx, string>();
  // A page that writes its amounts with points: an odd amount with a comma is a misread point
  // (the German model reads a point as a comma now and then), wherever it stands.
  const words = page.paragraphs.flatMap((p) => p.lines.flat());
  const points = words.filter((word) => AMOUNT.test(word.text)).length;
  const commas = words.filter((word) => COMMA_AMOUNT.test(word.text));
  if (points >= MIN_AMOUNTS && points >= POINTS_PER_COMMA * commas.length)
    for (const word of commas) fixes.set(word, word.text.replace(COMMA_AMOUNT, '$1$2.$3'));
  for (const column of columns) {
    const amounts = column.filter((word) => AMOUNT.test(word.text)).length;
    if (amounts < MIN_AMOUNTS || amounts < MIN_SHARE * column.length) continue;
    // The column's figures that are neither amounts nor amounts with a misread point.
    const odd: OcrWordPx[] = [];
    for (const word of column) {
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
  return withTexts(page, fixes);
}
