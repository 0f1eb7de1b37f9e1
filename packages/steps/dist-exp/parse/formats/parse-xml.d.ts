import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * Element nesting read; deeper XML fails with FILE_SIZE_TOO_LARGE (fast-xml-parser counts it as
 * it parses, in linear time). Data formats nest tens of levels; the walk below recurses per level.
 */
export declare const MAX_XML_DEPTH = 256;
/**
 * XML through fast-xml-parser with every value kept as text (no number coercion: "10.00" stays
 * "10.00") and no entity expansion. Each element with leaf children becomes a text block of
 * `name: value` lines, headed by the element's path.
 */
export declare function parseXml(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-xml.d.ts.map