import mammoth from 'mammoth';
import { ParseFailure } from '../parse-failure.js';
import { htmlToBlocks } from './html-blocks.js';
/**
 * DOCX through mammoth (styles → semantic HTML: headings, lists, tables, images), then the HTML
 * block walker. Images become figures without inlining their bytes. DOCX has no pages without a
 * layout engine, so the document is one pageless unit.
 */
export async function parseDocx(bytes, context) {
    let html;
    let images = 0;
    try {
        const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, {
            convertImage: mammoth.images.imgElement(async (image) => {
                images++;
                const type = image.contentType.replace(/^image\//, '');
                return { src: `image${images}.${type}` };
            }),
        });
        html = result.value;
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ParseFailure('CORRUPT_FILE', `The DOCX could not be read (${message}). It may be truncated or not a Word document; re-save it from Word.`, { cause: error });
    }
    context.signal.throwIfAborted();
    const blocks = htmlToBlocks(html, {
        figures: context.config.figures,
        maxCells: context.limits.maxCells,
        signal: context.signal,
    });
    return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
//# sourceMappingURL=parse-docx.js.map