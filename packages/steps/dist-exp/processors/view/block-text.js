/** The text of a parse block without the markdown decorations the parser adds. */
/** Strips markdown decorations the parser adds to block content (headings, emphasis, bullets). */
export function plain(text) {
    return text
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/\*\*([^*\s][^*]*?)\*\*|__([^_\s][^_]*?)__/g, '$1$2')
        .replace(/^\s*[-*•]\s+/, '')
        .replace(/\s+$/, '');
}
//# sourceMappingURL=block-text.js.map