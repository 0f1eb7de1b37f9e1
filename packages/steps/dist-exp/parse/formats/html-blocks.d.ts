import type { DraftBlock } from '../draft-document.ts';
/**
 * Element nesting kept as structure; deeper content is flattened into the text of its ancestor at
 * this depth. Real pages nest 20 to 60 elements deep; 128 leaves room for generated markup while
 * the recursive walks below stay shallow whatever the input (300,000 nested `<div>`s included).
 */
export declare const MAX_HTML_DEPTH = 128;
/** Options of {@link htmlToBlocks}. */
export interface HtmlBlockOptions {
    readonly figures: boolean;
    readonly maxCells: number;
    readonly signal: AbortSignal;
}
/**
 * Turns HTML into blocks in document order: headings, paragraphs, list items, code, quotes,
 * tables (with cells) and images (figures). Each block carries its markdown; the walk is linear
 * in the size of the document (no nested re-rendering of tables).
 */
export declare function htmlToBlocks(html: string, options: HtmlBlockOptions): DraftBlock[];
//# sourceMappingURL=html-blocks.d.ts.map