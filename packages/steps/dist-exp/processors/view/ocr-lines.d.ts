/**
 * Lines of an OCR'd text block from its word boxes (`advancedOptions.returnOcr.words`): the
 * words of each line of the block's text, in order, joined by a space, or by the view's cell
 * separator (four spaces) where the gap between two words is wider than word spacing. Each
 * word is a segment with its own box, so that the tables and label/value pairs of a scan line
 * up by geometry as those of a text PDF do. Without word boxes (the default), or when they do
 * not spell the block's text, the block is read as lines of plain text.
 */
import type { Block } from '../../parse/parse-output.ts';
import type { DocumentLine, DocumentRegion } from './document-view.ts';
/**
 * The lines of `block` from its OCR word boxes, numbered from `firstIndex`; undefined when the
 * block has no word boxes or they do not spell its text line by line.
 */
export declare function ocrLines(block: Block, base: DocumentRegion, firstIndex: number): DocumentLine[] | undefined;
//# sourceMappingURL=ocr-lines.d.ts.map