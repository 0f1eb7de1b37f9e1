/**
 * Decodes text bytes: a UTF-8/UTF-16 BOM wins, then strict UTF-8, then Windows-1252 (the usual
 * encoding of "ANSI" exports, and a superset of Latin-1).
 */
export function decodeText(bytes) {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        return new TextDecoder('utf-8').decode(bytes.subarray(3));
    }
    if (bytes[0] === 0xff && bytes[1] === 0xfe)
        return new TextDecoder('utf-16le').decode(bytes.subarray(2));
    if (bytes[0] === 0xfe && bytes[1] === 0xff)
        return new TextDecoder('utf-16be').decode(bytes.subarray(2));
    try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    }
    catch {
        return new TextDecoder('windows-1252').decode(bytes);
    }
}
/** Normalises line endings to `\n`. */
export function normaliseNewlines(text) {
    return text.replace(/\r\n?/g, '\n');
}
//# sourceMappingURL=decode-text.js.map