import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ParseFailure } from '../parse-failure.js';
import { decodeText } from './decode-text.js';
const PREDEFINED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** Only the five predefined entities and character references: declared entities never expand. */
function decodeEntities(text) {
    return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (match, name) => {
        if (name.startsWith('#x') || name.startsWith('#X'))
            return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
        if (name.startsWith('#'))
            return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
        return PREDEFINED[name.toLowerCase()] ?? match;
    });
}
/**
 * Element nesting read; deeper XML fails with FILE_SIZE_TOO_LARGE (fast-xml-parser counts it as
 * it parses, in linear time). Data formats nest tens of levels; the walk below recurses per level.
 */
export const MAX_XML_DEPTH = 256;
/**
 * XML through fast-xml-parser with every value kept as text (no number coercion: "10.00" stays
 * "10.00") and no entity expansion. Each element with leaf children becomes a text block of
 * `name: value` lines, headed by the element's path.
 */
export async function parseXml(bytes, context) {
    const text = decodeText(bytes);
    const valid = XMLValidator.validate(text);
    if (valid !== true) {
        const { msg, line, col } = valid.err;
        throw new ParseFailure('CORRUPT_FILE', `The XML is not well-formed: ${msg} (line ${line}, column ${col}).`);
    }
    const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '@',
        parseTagValue: false,
        parseAttributeValue: false,
        processEntities: false,
        ignoreDeclaration: true,
        ignorePiTags: true,
        trimValues: true,
        textNodeName: '#text',
        maxNestedTags: MAX_XML_DEPTH,
    });
    let tree;
    try {
        tree = parser.parse(text);
    }
    catch (error) {
        if (error instanceof Error && /Maximum nested tags/.test(error.message)) {
            throw new ParseFailure('FILE_SIZE_TOO_LARGE', `The XML nests elements more than ${MAX_XML_DEPTH} levels deep, deeper than a document is read.`);
        }
        throw error;
    }
    context.signal.throwIfAborted();
    const blocks = [];
    const visit = (path, value) => {
        if (typeof value === 'string')
            return;
        if (Array.isArray(value)) {
            value.forEach((item, index) => {
                visit(`${path}[${index}]`, item);
            });
            return;
        }
        const leaves = [];
        const nested = [];
        for (const [key, child] of Object.entries(value)) {
            if (typeof child === 'string')
                leaves.push(`${key === '#text' ? 'text' : key}: ${decodeEntities(child)}`);
            else if (Array.isArray(child) && child.every((c) => typeof c === 'string')) {
                for (const c of child)
                    leaves.push(`${key}: ${decodeEntities(c)}`);
            }
            else
                nested.push([key, child]);
        }
        if (leaves.length > 0) {
            const content = [path, ...leaves.map((leaf) => `  ${leaf}`)].join('\n');
            blocks.push({
                type: 'text',
                content,
                markdown: [`**${path}**`, ...leaves.map((leaf) => `- ${leaf}`)].join('\n'),
                details: { type: 'text_details' },
            });
        }
        for (const [key, child] of nested)
            visit(path === '' ? key : `${path}.${key}`, child);
    };
    for (const [key, value] of Object.entries(tree)) {
        if (typeof value === 'string') {
            blocks.push({
                type: 'text',
                content: `${key}: ${value}`,
                markdown: `${key}: ${value}`,
                details: { type: 'text_details' },
            });
        }
        else
            visit(key, value);
    }
    return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
//# sourceMappingURL=parse-xml.js.map