import type { DraftBlock } from '../../draft-document.ts';
import type { BoundingBox } from '../../parse-output.ts';
import type { HeadingCandidate } from './headings.ts';
import type { RuledTable } from './ruled-tables.ts';
import type { TextRun } from './text-runs.ts';
/**
 * Lays out a page: ruled tables first (their runs leave the flow; a grid whose cells are mostly
 * empty is a figure's and stays out), then line pieces, reading order by XY-cut, the pieces of
 * one row joined into a line, paragraphs from line spacing, alignment and style, each line kept
 * (content has one line per visual line; markdown joins wrapped lines and keeps broken ones),
 * list items from their marks. Heading levels need the text sizes of the whole document: each
 * paragraph that may be a heading is returned as a candidate, for `withHeadings` once every page
 * is laid out (pages are laid out by the thread that read them).
 */
export declare function layoutPage(runs: readonly TextRun[], tables: readonly RuledTable[], extra?: readonly DraftBlock[], options?: {
    readonly keyValues?: boolean;
    readonly rowTables?: boolean;
}): {
    blocks: DraftBlock[];
    headings: HeadingCandidate[];
    lines: {
        text: string;
        box: BoundingBox;
    }[];
};
//# sourceMappingURL=page-layout.d.ts.map