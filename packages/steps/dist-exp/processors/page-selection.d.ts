/**
 * Page and sheet selection of processor configs: `pageRanges` (1-based, inclusive, `end`
 * defaulting to 750 as in the interface) and `excelSheetRanges` (0-based sheet indexes).
 */
import type { ProcessorPageRange } from './processor-config.ts';
import type { DocumentView } from './view/document-view.ts';
/** The view limited to `ranges` (no ranges: the whole view). */
export declare function selectPageRanges(view: DocumentView, ranges: readonly ProcessorPageRange[] | undefined): DocumentView;
/** The view limited to sheets in `ranges`; pages without a sheet are kept. */
export declare function selectSheetRanges(view: DocumentView, ranges: readonly {
    readonly start: number;
    readonly end: number;
}[] | undefined): DocumentView;
/** The pages `start..end` of a view (one file's numbering), renumbered from 1 as `fileId`. */
export declare function slicePages(view: DocumentView, start: number, end: number, fileId?: string): DocumentView;
//# sourceMappingURL=page-selection.d.ts.map