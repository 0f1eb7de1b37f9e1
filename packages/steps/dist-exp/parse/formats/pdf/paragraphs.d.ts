import type { ColumnExtent } from './reading-order.ts';
import type { TextLine } from './text-lines.ts';
/** Starts a list item: a bullet, `1.`, `(1)`, `a)`. */
export declare const LIST_MARK: RegExp;
/** How a line follows the previous one of its paragraph. */
export type LineJoin = 'wrap' | 'break';
/** Lines that read as one paragraph, and how each follows the previous one. */
export interface Paragraph {
    readonly lines: TextLine[];
    /** `joins[i]` is how `lines[i + 1]` follows `lines[i]`. */
    readonly joins: LineJoin[];
}
/**
 * How `next` follows `line` inside a paragraph, from the geometry of the line and its column:
 * a wrap when the text ran out of room (the first word of the next line would not have fit in
 * the column's width, at its right edge) and the line is as wide as text columns are; a break
 * when the line ended with room to spare or is narrow (an address, a label and its value), when
 * either line is a row of separated pieces, when the line ends with a colon, or when both lines
 * read `Label: value`, or when both are set in a fixed-pitch font (code). `widest` is the width of the widest text of the line's size on the page.
 */
export declare function lineJoin(line: TextLine, next: TextLine, column: ColumnExtent, widest: number): LineJoin;
/**
 * True when `next` continues the paragraph `lines` (whose last line is `last`): the next line
 * down at the paragraph's line spacing (no paragraph spacing), the same size and weight, not a
 * list item, aligned on the left (a first-line or hanging indent allowed on the second line), on
 * the centre or on the right, and not indented against the paragraph's body (a new paragraph's
 * first-line indent).
 */
export declare function continuesParagraph(lines: readonly TextLine[], next: TextLine): boolean;
/**
 * The paragraph's text as markdown: wrapped lines joined by a space (a word hyphenated at the
 * line end joined again, as pdftotext does), broken lines kept apart by a line break.
 */
export declare function paragraphMarkdown(paragraph: Paragraph): string;
//# sourceMappingURL=paragraphs.d.ts.map