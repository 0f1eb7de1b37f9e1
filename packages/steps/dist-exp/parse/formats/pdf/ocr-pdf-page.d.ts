import type { DraftBlock } from '../../draft-document.ts';
import type { FormatContext } from '../../format-context.ts';
import type { OutputPageMetadata } from '../../parse-output.ts';
import type { PdfDocument } from './pdfjs.ts';
/** OCR of a PDF page without a text layer: rendered to gray at 200 DPI, then recognised. */
export declare function ocrPdfPage(doc: PdfDocument, number: number, context: FormatContext, original: {
    width: number;
    height: number;
}): Promise<{
    blocks: DraftBlock[];
    spatial: string;
    width: number;
    height: number;
    page: OutputPageMetadata;
}>;
//# sourceMappingURL=ocr-pdf-page.d.ts.map