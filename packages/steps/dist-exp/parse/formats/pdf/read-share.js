import { layOutPage } from './laid-page.js';
import { readPage } from './read-page.js';
/**
 * Reads `pages` of an open document in this thread, each laid out as soon as it is read (the
 * calling thread and the PDF worker threads alike). `signal` is checked before each page;
 * `onPage` hears of each page once it is laid out.
 */
export async function readShare(bytes, doc, pages, config, hasForm, signal, onPage) {
    let content;
    const sources = {
        doc,
        content: () => {
            content ??= import('./page-content.js').then((m) => m.openPageContent(bytes));
            return content;
        },
        paths: { text: 0, 'content-stream': 0, 'operator-list': 0 },
    };
    const laid = [];
    for (const number of pages) {
        signal?.throwIfAborted();
        const page = layOutPage(await readPage(sources, number, config, hasForm), config);
        laid.push(page);
        onPage?.(page);
    }
    return { pages: laid, paths: sources.paths };
}
//# sourceMappingURL=read-share.js.map