/**
 * Citations for values a model returned without them: each leaf value is looked up in the
 * document's lines (text by substring, numbers and dates by their parsed value) and cited where
 * it is first found.
 */
import type { ExtractValue, FieldMetadata } from '../provider.ts';
import type { DocumentView } from '../view/document-view.ts';
/** Metadata with citations for every leaf of `value` found in the document. */
export declare function locateCitations(view: DocumentView, value: {
    readonly [key: string]: ExtractValue;
}): Record<string, FieldMetadata>;
//# sourceMappingURL=locate-citations.d.ts.map