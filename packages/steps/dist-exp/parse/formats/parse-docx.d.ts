import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * DOCX through mammoth (styles → semantic HTML: headings, lists, tables, images), then the HTML
 * block walker. Images become figures without inlining their bytes. DOCX has no pages without a
 * layout engine, so the document is one pageless unit.
 */
export declare function parseDocx(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-docx.d.ts.map