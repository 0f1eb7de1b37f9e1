import type { DocumentPage, DocumentView, ParsedFile } from './document-view.ts';
/**
 * Builds the {@link DocumentView} of one or more parse outputs. Text blocks become lines (a
 * multi-line block is cut into horizontal bands for citations), key-value blocks and
 * "Label: value" lines become fields, table blocks and column-aligned lines become tables.
 */
export declare function buildDocumentView(files: readonly ParsedFile[]): DocumentView;
/** The view restricted to some pages (per file numbering), renumbered from 1 when asked. */
export declare function selectPages(view: DocumentView, keep: (page: DocumentPage) => boolean): DocumentView;
/** The whole text of a view, page by page. */
export declare function viewText(view: DocumentView): string;
//# sourceMappingURL=build-view.d.ts.map