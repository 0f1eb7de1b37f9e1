import { figureColumns, isFigure, median } from './figure-columns.ts';
import { cropGray, type GrayImage } from './gray-image.ts';
import { type OcrPagePx, type OcrParagraphPx, type OcrWordPx, recognizeParts } from './ocr-pool.ts';
import { coveredShare, cropOrigin, movedBox, type PixelBox, unionBox } from './pixel-boxes.ts';

/** A table body: a column of at least this many figures. */
const MIN_ROWS = 3;

/** Header words are within this many row pitches above the table's first row. */
const HEADER_REACH = 1.5;

/** A re-read column is kept when its words' mean confidence reaches this (0..100). */
const MIN_CONFIDENCE = 60;

/** A re-read word overlapping a word read before by this share of its area is that word. */
const SAME_WORD = 0.5;

/**
 * A column's figures cut where the gap down to the next is over twice the column's middle gap
 * (a letterhead's figures above a table's, right-aligned alike).
 */
function runs(column: readonly OcrWordPx[]): OcrWordPx[][] {
  const sorted = [...column].sort((a, b) => a.bbox.y0 - b.bbox.y0);
  const gaps = sorted.slice(1).map((w, i) => w.bbox.y0 - (sorted[i]?.bbox.y0 ?? 0));
  const limit = 2 * median(gaps);
  const out: OcrWordPx[][] = [];
  sorted.forEach((word, i) => {
    const run = out.at(-1);
    if (run && i > 0 && (gaps[i - 1] ?? 0) <= limit) run.push(word);
    else out.push([word]);
  });
  return out;
}

/**
 * Reads again, as rows, a table column that recognition left empty. Automatic layout (PSM 3)
 * can drop a narrow column of short figures altogether (a quantity column of `2`, `24`, `1`
 * beside wide ones), leaving its header over nothing. The table's rows are those of its longest
 * column of figures; a header word over them (letters, within {@link HEADER_REACH} rows above)
 * with words under it in fewer than half the rows has its column cut out, between the neighbouring
 * words, and read as a block of uniform lines (PSM 6). Words read confidently enough that the
 * page did not have are added, one paragraph per column.
 */
export async function rereadEmptyColumns(
  page: OcrPagePx,
  image: GrayImage,
  dpi: number,
): Promise<OcrPagePx> {
  const body = figureColumns(page)
    .columns.flatMap(runs)
    .filter((run) => run.length >= MIN_ROWS)
    .sort((a, b) => b.length - a.length)[0];
  if (!body) return page;
  const top = Math.min(...body.map((w) => w.bbox.y0));
  const bottom = Math.max(...body.map((w) => w.bbox.y1));
  const pitch = (bottom - top) / body.length;
  const height = median(body.map((w) => w.bbox.y1 - w.bbox.y0));
  const words = page.paragraphs.flatMap((p) => p.lines.flat());
  const inBody = words.filter((w) => {
    const middle = (w.bbox.y0 + w.bbox.y1) / 2;
    return middle > top && middle < bottom;
  });
  const headers = words.filter(
    (w) =>
      w.bbox.y1 <= top &&
      w.bbox.y1 >= top - HEADER_REACH * pitch &&
      w.text.length >= 2 &&
      /^\p{L}+\.?$/u.test(w.text),
  );
  const regions: PixelBox[] = [];
  for (const header of headers) {
    const under = inBody.filter((w) => w.bbox.x1 > header.bbox.x0 && w.bbox.x0 < header.bbox.x1);
    if (under.length >= body.length / 2) continue;
    // The column reaches towards its neighbours in the body, half a word height short of them,
    // and at most three word heights beyond its header.
    const left = Math.max(
      header.bbox.x0 - 3 * height,
      ...inBody.filter((w) => w.bbox.x1 <= header.bbox.x0).map((w) => w.bbox.x1 + height / 2),
    );
    const right = Math.min(
      header.bbox.x1 + 3 * height,
      ...inBody.filter((w) => w.bbox.x0 >= header.bbox.x1).map((w) => w.bbox.x0 - height / 2),
    );
    if (right - left < height) continue;
    regions.push({
      x0: left,
      y0: Math.max(header.bbox.y1 + 1, top - height / 2),
      x1: right,
      y1: bottom + height / 2,
    });
  }
  if (regions.length === 0) return page;
  const reads = await recognizeParts(
    regions.map((region) => cropGray(image, region)),
    dpi,
    'rows',
  );
  const added: OcrParagraphPx[] = [];
  regions.forEach((region, i) => {
    const read = reads[i];
    if (!read || read.words === 0 || read.meanConfidence < MIN_CONFIDENCE) return;
    const { x, y } = cropOrigin(region);
    const lines = read.paragraphs
      .flatMap((paragraph) => paragraph.lines)
      .map((line) =>
        line
          .map((word) => ({ ...word, bbox: movedBox(word.bbox, x, y) }))
          .filter(
            (word) =>
              isFigure(word.text) &&
              !words.some((w) => coveredShare(word.bbox, w.bbox) > SAME_WORD),
          ),
      )
      .filter((line) => line.length > 0);
    const all = lines.flat();
    if (all.length === 0) return;
    added.push({
      lines,
      bbox: unionBox(all.map((w) => w.bbox)),
    });
  });
  if (added.length === 0) return page;
  const paragraphs = [...page.paragraphs, ...added];
  const newWords = added.flatMap((p) => p.lines.flat());
  const count = page.words + newWords.length;
  return {
    ...page,
    paragraphs,
    words: count,
    meanConfidence:
      (page.meanConfidence * page.words + newWords.reduce((s, w) => s + w.confidence, 0)) / count,
    lines: page.lines + added.reduce((s, p) => s + p.lines.length, 0),
  };
}
