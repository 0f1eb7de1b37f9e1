/** The text of a parse block without the markdown decorations the parser adds. */
/** Strips markdown decorations the parser adds to block content (headings, emphasis, bullets). */
export declare function plain(text: string): string;
//# sourceMappingURL=block-text.d.ts.map