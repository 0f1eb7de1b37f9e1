import { readContentGraphics, UnsupportedContent } from './content-graphics.js';
import { graphicsSink } from './page-graphics.js';
import { findRuledTables } from './ruled-tables.js';
import { looksScanned, placePage, readPageText, scanPage, } from './scan-page.js';
/**
 * Reads one page like {@link scanPage}, but takes ruling lines and image placements from the raw
 * content stream instead of pdf.js's operator list, which costs as much as the text itself. The
 * operator list (through `scanPage`) stays the path for pages that may be scans (little text and
 * images covering much of the page, as the content stream tells), pages with form fields, and
 * content this reader does not model ({@link UnsupportedContent}). A page with little text and
 * no such image (a section's last line on a page of its own) is read here: it cannot be a scan.
 * Bold text is known from the text content's font styles, whichever path reads the page.
 */
export async function readPage(sources, number, config, hasForm) {
    if (hasForm)
        return viaOperatorList(sources, number, config, hasForm);
    // Decided with the page open, taken once it is closed again.
    return ((await readFast(sources, number, config)) ?? viaOperatorList(sources, number, config, hasForm));
}
/** The page without the operator list, or `undefined` when it needs it. */
async function readFast(sources, number, config) {
    const page = await sources.doc.getPage(number);
    try {
        const text = await readPageText(page, config);
        const { complex, scarce, withGraphics } = text;
        const { runs, frame, upright, geometry } = placePage(page, text, config);
        const sink = graphicsSink(upright);
        if (withGraphics) {
            const pageContent = (await sources.content())?.page(page.ref);
            if (!pageContent)
                return undefined;
            try {
                readContentGraphics(pageContent.content, pageContent.resources, sink);
            }
            catch (error) {
                if (error instanceof UnsupportedContent)
                    return undefined;
                throw error;
            }
            // Every engine reads the graphics of a page with little text (readPageText).
            if (scarce && looksScanned(runs, sink.graphics.images, frame))
                return undefined;
            sources.paths['content-stream']++;
        }
        else {
            sources.paths.text++;
        }
        const { segments, images } = sink.graphics;
        return {
            number,
            ...geometry,
            runs,
            tables: config.tables ? findRuledTables(segments) : [],
            images,
            fields: [],
            // A scan would have taken the operator list above.
            scanned: false,
            complex,
        };
    }
    finally {
        page.cleanup();
    }
}
function viaOperatorList(sources, number, config, hasForm) {
    sources.paths['operator-list']++;
    return scanPage(sources.doc, number, config, hasForm);
}
//# sourceMappingURL=read-page.js.map