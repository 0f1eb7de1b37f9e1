import mammoth from 'mammoth';
import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import { ParseFailure } from '../parse-failure.ts';
import { readDocxMargins } from './docx-margins.ts';
import { htmlToBlocks } from './html-blocks.ts';

/**
 * DOCX through mammoth (styles → semantic HTML: headings, lists, tables, images), then the HTML
 * block walker. Images become figures without inlining their bytes. DOCX has no pages without a
 * layout engine, so the document is one pageless unit. mammoth reads the body only: the first
 * page's header comes before it, the other headers and the footers after it (docx-margins.ts).
 */
export async function parseDocx(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  let html: string;
  let images = 0;
  try {
    const margins = readDocxMargins(bytes);
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        convertImage: mammoth.images.imgElement(async (image) => {
          images++;
          const type = image.contentType.replace(/^image\//, '');
          return { src: `image${images}.${type}` };
        }),
      },
    );
    html = `${margins.before}${result.value}${margins.after}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseFailure(
      'CORRUPT_FILE',
      `The DOCX could not be read (${message}). It may be truncated or not a Word document; re-save it from Word.`,
      { cause: error },
    );
  }
  context.signal.throwIfAborted();
  const blocks = htmlToBlocks(html, {
    figures: context.config.figures,
    maxCells: context.limits.maxCells,
    signal: context.signal,
  });
  return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
