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
            content ??= import('./page-content.js').then((m) => { const c0 = process.cpuUsage(); const r = m.openPageContent(bytes); const c = process.cpuUsage(c0); const T = globalThis.__T ??= {}; T.openContent = (T.openContent ?? 0) + (c.user + c.system) / 1000; return r; });
            return content;
        },
        paths: { text: 0, 'content-stream': 0, 'operator-list': 0 },
    };
    const laid = [];
    for (const number of pages) {
        signal?.throwIfAborted();
        const scan = await readPage(sources, number, config, hasForm); const T = globalThis.__T ??= {}; const c0 = process.cpuUsage(); const page = layOutPage(scan, config); const c1 = process.cpuUsage(c0); T.layout = (T.layout ?? 0) + (c1.user + c1.system) / 1000;
        laid.push(page);
        onPage?.(page);
    }
    return { pages: laid, paths: sources.paths };
}
//# sourceMappingURL=read-share.js.map