/**
 * Offline splitting: each page is classified and read for boundary cues, then pages are grouped
 * into contiguous sub-documents. Cues, strongest first: page numbering ("Page 1 of 3" starts a
 * document, "Page 2 of 3" continues one); identifiers (a different invoice, order, receipt or
 * statement number starts a document, the same one continues it); a confident change of
 * classification; a title naming the page's type in its first lines. Every page ends up in
 * exactly one split and the splits cover the document in order.
 */
import type { SplitterConfig } from '../processor-config.ts';
import type { ProposedSplit } from '../provider.ts';
import type { DocumentView } from '../view/document-view.ts';
/** Splits a document view: file by file, each into contiguous splits covering its pages. */
export declare function offlineSplit(doc: DocumentView, config: SplitterConfig): ProposedSplit[];
//# sourceMappingURL=offline-split.d.ts.map