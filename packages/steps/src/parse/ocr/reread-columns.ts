import { cropGray, type GrayImage } from './gray-image.ts';
import { type OcrPagePx, type OcrParagraphPx, type OcrWordPx, recognizeParts } from './ocr-pool.ts';
import { coveredShare, cropOrigin, movedBox, unionBox } from './pixel-boxes.ts';

/**
 * Above this share of vertical lines the page itself is turned (orientation detection's case),
 * not an upright page with a few narrow columns.
 */
const MAX_VERTICAL_SHARE = 0.25;

/** Rows of the column the cut-out region reaches beyond the vertical line, each way. */
const EXTRA_ROWS = 1.5;

/** A re-read word overlapping a word read before by this share of its area is that word. */
const SAME_WORD = 0.5;

/** Margin around a vertical line's words when its region is cut out, in pixels per DPI. */
const MARGIN_PER_DPI = 0.06;

/**
 * Reads the vertical lines of an upright page again as rows. Automatic layout (PSM 3) takes a
 * narrow column of short figures (a quantity column of `1`, `2`, `1`, `3`) for one line of
 * vertical text and reads it as garbage (`Ww RNR`); the column's region, cut out and read as a
 * block of uniform lines (PSM 6), gives its figures one per row, where the table needs them.
 * A re-read replaces the vertical line when it reads more confidently and has no vertical line
 * itself; its words go back into the page's pixels, after the paragraph the line was in.
 */
export async function rereadColumns(
  page: OcrPagePx,
  image: GrayImage,
  dpi: number,
): Promise<OcrPagePx> {
  const vertical = page.vertical ?? [];
  if (vertical.length === 0 || vertical.length > MAX_VERTICAL_SHARE * page.lines) return page;
  const margin = MARGIN_PER_DPI * dpi;
  const regions = vertical.map((line) => {
    const box = unionBox(line.map((word) => word.bbox));
    // The line may have left out the column's first or last figure: the region reaches a
    // row further each way (a row: the line's height over its words).
    const row = (box.y1 - box.y0) / line.length;
    const down = margin + EXTRA_ROWS * row;
    return { x0: box.x0 - margin, y0: box.y0 - down, x1: box.x1 + margin, y1: box.y1 + down };
  });
  const reads = await recognizeParts(
    regions.map((region) => cropGray(image, region)),
    dpi,
    'rows',
  );
  const replaced = new Map<readonly OcrWordPx[], OcrParagraphPx[]>();
  const lines = new Set<readonly OcrWordPx[]>(vertical);
  const others = page.paragraphs
    .flatMap((paragraph) => paragraph.lines.filter((line) => !lines.has(line)))
    .flat()
    .map((word) => word.bbox);
  // A word of the region that the page had read already (a header above the column) is not
  // added twice.
  const isNew = (word: OcrWordPx) =>
    !others.some((box) => coveredShare(word.bbox, box) > SAME_WORD);
  vertical.forEach((line, i) => {
    const read = reads[i];
    const region = regions[i];
    if (!read || !region || read.words === 0 || read.verticalLines > 0) return;
    const before = line.reduce((sum, word) => sum + word.confidence, 0) / line.length;
    if (read.meanConfidence <= before) return;
    const { x, y } = cropOrigin(region);
    const paragraphs: OcrParagraphPx[] = [];
    for (const paragraph of read.paragraphs) {
      const rows = paragraph.lines
        .map((words) =>
          words.map((word) => ({ ...word, bbox: movedBox(word.bbox, x, y) })).filter(isNew),
        )
        .filter((words) => words.length > 0);
      if (rows.length > 0) paragraphs.push({ bbox: movedBox(paragraph.bbox, x, y), lines: rows });
    }
    replaced.set(line, paragraphs);
  });
  if (replaced.size === 0) return page;
  const paragraphs: OcrParagraphPx[] = [];
  for (const paragraph of page.paragraphs) {
    const kept = paragraph.lines.filter((line) => !replaced.has(line));
    if (kept.length > 0) paragraphs.push({ ...paragraph, lines: kept });
    for (const line of paragraph.lines) paragraphs.push(...(replaced.get(line) ?? []));
  }
  const all = paragraphs.flatMap((paragraph) => paragraph.lines);
  const words = all.flat();
  return {
    paragraphs,
    words: words.length,
    meanConfidence:
      words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
    lines: all.length,
    verticalLines: page.verticalLines - replaced.size,
    vertical: vertical.filter((line) => !replaced.has(line)),
  };
}
