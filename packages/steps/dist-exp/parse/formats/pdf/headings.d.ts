import type { DraftBlock } from '../../draft-document.ts';
/** The body text size: the size carrying the most characters. */
export declare function bodySize(sizes: readonly {
    size: number;
    chars: number;
}[]): number;
/** A paragraph that may read as a heading, once every page's text sizes are known. */
export interface HeadingCandidate {
    /** Where the paragraph's block is among the page's blocks. */
    readonly index: number;
    /** The median text size of its lines. */
    readonly size: number;
    /**
     * A lone short bold line set apart from the text above it and followed by text that is not
     * bold: a sub-heading below the size-based levels, even at body size.
     */
    readonly bold: boolean;
}
/**
 * A page's blocks with its heading candidates made headings where the document's sizes say so:
 * a level from the text size, or, for a set-apart bold line, the level below the size-based ones.
 * A heading reads as a markdown heading on one line (list marks are not kept on it).
 */
export declare function withHeadings(blocks: readonly DraftBlock[], headings: readonly HeadingCandidate[], headingSizes: readonly number[], body: number): DraftBlock[];
/** Sizes clearly above body text, largest first: they become heading levels 1, 2, 3, … */
export declare function headingSizesOf(sizes: readonly {
    size: number;
    chars: number;
}[], body: number): number[];
//# sourceMappingURL=headings.d.ts.map