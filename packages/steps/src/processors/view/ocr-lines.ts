/**
 * Lines of an OCR'd text block from its word boxes (`advancedOptions.returnOcr.words`): the
 * words of each line of the block's text, in order, joined by a space, or by the view's cell
 * separator (four spaces) where the gap between two words is wider than word spacing. Each
 * word is a segment with its own box, so that the tables and label/value pairs of a scan line
 * up by geometry as those of a text PDF do. Without word boxes (the default), or when they do
 * not spell the block's text, the block is read as lines of plain text.
 */
import type { Block, OcrWord } from '../../parse/parse-output.ts';
import type { DocumentLine, DocumentRegion } from './document-view.ts';
import type { LineSegment } from './reline-page.ts';
import { rect } from './view-geometry.ts';

/**
 * A word of punctuation alone (`.`, `;`, `{`, `|`, `\`): a speck or a rule that OCR read as text, not
 * a word; it would split or join the cells around it.
 */
const SPECK = /^[.,;:{}|'`~_\\]+$/;

/** A line of one character that is neither a letter nor a digit (`¥`, `*`): a speck. */
const LONE_SYMBOL = /^[^\p{L}\p{N}]$/u;

/** A gap wider than this many average character widths separates two cells. */
const CELL_GAP = 1.6;

/** The separator the view's cell splitting reads (a run of two or more spaces). */
const CELL_SEPARATOR = '    ';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One line from its words: cells where the gaps are wide, a segment per word. */
function lineOf(
  words: readonly OcrWord[],
  base: DocumentRegion,
  index: number,
): DocumentLine | undefined {
  const first = words[0];
  if (!first) return undefined;
  const charWidth = median(
    words.map((w) => (w.boundingBox.right - w.boundingBox.left) / Math.max(1, w.text.length)),
  );
  let text = '';
  const segments: LineSegment[] = [];
  let previous: OcrWord | undefined;
  for (const word of words) {
    if (previous) {
      const gap = word.boundingBox.left - previous.boundingBox.right;
      text += gap > CELL_GAP * charWidth ? CELL_SEPARATOR : ' ';
    }
    const b = word.boundingBox;
    segments.push({
      start: text.length,
      end: text.length + word.text.length,
      polygon: rect(b.left, b.top, b.right, b.bottom),
    });
    text += word.text;
    previous = word;
  }
  const boxes = words.map((w) => w.boundingBox);
  const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
  return {
    fileId: base.fileId,
    page: base.page,
    pageWidth: base.pageWidth,
    pageHeight: base.pageHeight,
    polygon: rect(
      Math.min(...boxes.map((b) => b.left)),
      Math.min(...boxes.map((b) => b.top)),
      Math.max(...boxes.map((b) => b.right)),
      Math.max(...boxes.map((b) => b.bottom)),
    ),
    ocrConfidence: Math.round(confidence * 10_000) / 10_000,
    text,
    index,
    ...(segments.length > 1 ? { segments } : {}),
  };
}

/**
 * The lines of `block` from its OCR word boxes, numbered from `firstIndex`, without specks (see
 * {@link SPECK}, {@link LONE_SYMBOL}); undefined when the block has no word boxes or they do not
 * spell its text line by line.
 */
export function ocrLines(
  block: Block,
  base: DocumentRegion,
  firstIndex: number,
): DocumentLine[] | undefined {
  const words = block.metadata.ocrWords;
  if (!words || words.length === 0) return undefined;
  const out: DocumentLine[] = [];
  let next = 0;
  for (const text of block.content.split('\n')) {
    const tokens = text.split(/\s+/).filter((t) => t !== '');
    if (tokens.length === 0) continue;
    const mine = words.slice(next, next + tokens.length);
    if (mine.length !== tokens.length || mine.some((w, i) => w.text !== tokens[i]))
      return undefined;
    next += tokens.length;
    const kept = mine.filter((w) => !SPECK.test(w.text));
    if (kept.length === 1 && LONE_SYMBOL.test(kept[0]?.text ?? '')) continue;
    const line = lineOf(kept, base, firstIndex + out.length);
    if (line) out.push(line);
  }
  return next === words.length ? out : undefined;
}
