import { clampBox } from '../../boxes.js';
import { spatialText } from '../../spatial-text.js';
import { layoutPage } from './page-layout.js';
/** Images smaller than this share of the page are decoration, not figures. */
const FIGURE_MIN_AREA = 0.005;
/** Lays out a page as soon as it is read (see {@link LaidPage}). */
export function layOutPage(scan, config) {
    if (process.env.NOLAYOUT) { const { runs, tables, images, fields, ...page } = scan; return { ...page, blocks: [], headings: [], sizes: [], spatial: '' }; }
    const { runs, tables, images, fields, ...page } = scan;
    const figures = config.figures
        ? images
            .filter((box) => (box.right - box.left) * (box.bottom - box.top) >
            scan.width * scan.height * FIGURE_MIN_AREA)
            .map((box) => ({
            type: 'figure',
            content: '',
            markdown: '',
            details: { type: 'figure_details', figureType: 'image' },
            boundingBox: clampBox(box, scan.width, scan.height),
        }))
        : [];
    const laid = layoutPage(runs, tables, figures, {
        keyValues: config.keyValue,
        // parse_light reads text alone: no tables, from rules or from aligned text.
        rowTables: config.engine !== 'parse_light',
    });
    const sizes = new Map();
    for (const run of runs) {
        const size = Math.round(run.size * 2) / 2;
        sizes.set(size, (sizes.get(size) ?? 0) + run.text.length);
    }
    return {
        ...page,
        blocks: fields.length > 0 ? [...laid.blocks, ...fields] : laid.blocks,
        headings: laid.headings,
        sizes: [...sizes],
        // Laying out fixed-width text costs ~2 ms a page: only for the spatial target.
        spatial: config.target === 'spatial' ? spatialText(laid.lines, scan.width) : '',
    };
}
//# sourceMappingURL=laid-page.js.map