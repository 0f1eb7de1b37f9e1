import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * Born-digital and scanned PDF through pdf.js: text runs placed in the upright frame (`/Rotate`
 * and turned text), ruled tables from the page content stream (pdf.js's operator list where
 * that reader steps aside), reading order by XY-cut, headings by font size, AcroForm fields as
 * key_value blocks; pages without a text layer are rendered and OCRed. Large documents are read
 * by pooled worker threads.
 */
export declare function parsePdf(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-pdf.d.ts.map