import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/** HTML: blocks from the DOM (cheerio), one pageless unit. */
export declare function parseHtml(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-html.d.ts.map