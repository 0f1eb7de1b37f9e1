import type { DraftBlock } from '../../draft-document.ts';
import type { FormatContext } from '../../parse-document.ts';
import { ParseFailure } from '../../parse-failure.ts';

/** OCR of a PDF page without a text layer (rendered, then recognised). */
export async function ocrPdfPage(
  _doc: unknown,
  number: number,
  _context: FormatContext,
): Promise<{ blocks: DraftBlock[]; spatial: string }> {
  throw new ParseFailure(
    'OCR_ERROR',
    `Page ${number} has no text layer and OCR is not available yet.`,
  );
}
