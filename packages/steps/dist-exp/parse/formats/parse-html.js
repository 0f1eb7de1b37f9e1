import { decodeText } from './decode-text.js';
import { htmlToBlocks } from './html-blocks.js';
/** HTML: blocks from the DOM (cheerio), one pageless unit. */
export async function parseHtml(bytes, context) {
    const blocks = htmlToBlocks(decodeText(bytes), {
        figures: context.config.figures,
        maxCells: context.limits.maxCells,
        signal: context.signal,
    });
    return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
//# sourceMappingURL=parse-html.js.map