import type { DraftDocument } from '../draft-document.ts';
/**
 * Plain text: one `text` block per paragraph (separated by blank lines), no geometry, one unit.
 * The spatial target keeps the text exactly as written.
 */
export declare function parseTxt(bytes: Uint8Array): DraftDocument;
//# sourceMappingURL=parse-txt.d.ts.map