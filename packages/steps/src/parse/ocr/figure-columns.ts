import type { OcrPagePx, OcrParagraphPx, OcrWordPx } from './ocr-pool.ts';

/** Right edges within this many word heights of each other are one column. */
const ALIGN = 0.8;

/** The middle of `values` (the upper one of two), 0 without values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A figure word: a digit in it, nothing but digits, separators and a leading sign or code. */
export function isFigure(text: string): boolean {
  return /\d/.test(text) && /^\D{0,3}[\d.,:;]+$/.test(text);
}

/**
 * The page's columns of figures: its figure words grouped by right edge (tables right-align
 * figures; centred ones differ by less than a digit), a new column where the edge jumps by more
 * than {@link ALIGN} word heights. Also that tolerance, in pixels, for placing other words.
 */
export function figureColumns(page: OcrPagePx): { columns: OcrWordPx[][]; tolerance: number } {
  const figures = page.paragraphs.flatMap((p) => p.lines.flat()).filter((w) => isFigure(w.text));
  const height = median(figures.map((word) => word.bbox.y1 - word.bbox.y0));
  const tolerance = Math.max(2, ALIGN * height);
  const columns: OcrWordPx[][] = [];
  for (const figure of [...figures].sort((a, b) => a.bbox.x1 - b.bbox.x1)) {
    const column = columns.at(-1);
    const last = column?.at(-1);
    if (column && last && figure.bbox.x1 - last.bbox.x1 <= tolerance) column.push(figure);
    else columns.push([figure]);
  }
  return { columns, tolerance };
}

/** The page with the words of `texts` reading as it says (the same page when it is empty). */
export function withTexts(page: OcrPagePx, texts: ReadonlyMap<OcrWordPx, string>): OcrPagePx {
  if (texts.size === 0) return page;
  const paragraphs: OcrParagraphPx[] = page.paragraphs.map((paragraph) => ({
    ...paragraph,
    lines: paragraph.lines.map((line) =>
      line.map((word) => {
        const text = texts.get(word);
        return text === undefined ? word : { ...word, text };
      }),
    ),
  }));
  return { ...page, paragraphs };
}
