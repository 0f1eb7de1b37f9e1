import type { DraftBlock, DraftDocument } from '../draft-document.ts';
import { decodeText, normaliseNewlines } from './decode-text.ts';

/** Characters that markdown would read as syntax at the start of a line. */
function escapeLineStart(line: string): string {
  return line.replace(/^(\s*)([#>*+-]|\d+[.)])(\s)/, '$1\\$2$3');
}

/**
 * Plain text: one `text` block per paragraph (separated by blank lines), no geometry, one unit.
 * The spatial target keeps the text exactly as written.
 */
export function parseTxt(bytes: Uint8Array): DraftDocument {
  const text = normaliseNewlines(decodeText(bytes));
  const blocks: DraftBlock[] = [];
  for (const paragraph of text.split(/\n[ \t]*\n+/)) {
    const content = paragraph.replace(/^\n+|\s+$/g, '');
    if (content.trim() === '') continue;
    blocks.push({
      type: 'text',
      content,
      markdown: content.split('\n').map(escapeLineStart).join('\n'),
      details: { type: 'text_details' },
    });
  }
  return {
    units: [{ pageNumber: 1, blocks, spatial: text }],
    pages: null,
    pageCount: 1,
  };
}
