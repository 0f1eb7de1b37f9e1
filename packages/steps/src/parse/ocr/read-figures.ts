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
 * left as they are: only the column says that a colon was a point.
 */
export function readFigures(page: OcrPagePx): OcrPagePx {
  const { columns } = figureColumns(page);
  const fixes = new Map<OcrWordPx, string>();
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
