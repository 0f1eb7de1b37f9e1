import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import { decodeText } from './decode-text.ts';
import { htmlToBlocks } from './html-blocks.ts';

/** HTML: blocks from the DOM (cheerio), one pageless unit. */
export async function parseHtml(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  const blocks = htmlToBlocks(decodeText(bytes), {
    figures: context.config.figures,
    maxCells: context.limits.maxCells,
    signal: context.signal,
  });
  return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
