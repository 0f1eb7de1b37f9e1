import type { DraftBlock } from '../../draft-document.ts';
import type { FormatContext } from '../../format-context.ts';
import { ocrPage } from '../../ocr/ocr-page.ts';
import type { OutputPageMetadata } from '../../parse-output.ts';
import type { PdfSession } from './pdf-session.ts';

/**
 * OCR resolution for scanned PDF pages: as accurate as 300 DPI on text of 8 pt and up, a third
 * faster (parsing-research.md §2.2).
 */
const OCR_DPI = 200;

/** OCR of a PDF page without a text layer: rendered to gray at 200 DPI, then recognised. */
export async function ocrPdfPage(
  session: PdfSession,
  number: number,
  context: FormatContext,
  original: { width: number; height: number },
): Promise<{
  blocks: DraftBlock[];
  spatial: string;
  width: number;
  height: number;
  page: OutputPageMetadata;
}> {
  // Rendered where the document is open (a contained worker); only the gray pixels come back.
  const rendered = await session.render(number, OCR_DPI);
  context.signal.throwIfAborted();
  const { unit, page } = await ocrPage(rendered, number, context, original);
  return {
    blocks: [...unit.blocks],
    spatial: unit.spatial ?? '',
    width: unit.page?.width ?? original.width,
    height: unit.page?.height ?? original.height,
    page,
  };
}
