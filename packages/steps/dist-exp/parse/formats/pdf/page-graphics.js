import { boxOf } from '../../boxes.js';
import { apply, multiply } from './geometry.js';
/** pdf.js operator ids we read (stable across 5.x: `OPS` in pdf.js). */
export const PDF_OPS = {
    save: 10,
    restore: 11,
    transform: 12,
    stroke: 20,
    closeStroke: 21,
    fill: 22,
    eoFill: 23,
    fillStroke: 24,
    eoFillStroke: 25,
    closeFillStroke: 26,
    closeEOFillStroke: 27,
    endPath: 28,
    paintFormXObjectBegin: 74,
    paintFormXObjectEnd: 75,
    paintImageMaskXObject: 83,
    paintImageXObject: 85,
    paintInlineImageXObject: 86,
    paintImageXObjectRepeat: 88,
    constructPath: 91,
};
const STROKES = new Set([
    PDF_OPS.stroke,
    PDF_OPS.closeStroke,
    PDF_OPS.fillStroke,
    PDF_OPS.eoFillStroke,
    PDF_OPS.closeFillStroke,
    PDF_OPS.closeEOFillStroke,
]);
const FILLS = new Set([PDF_OPS.fill, PDF_OPS.eoFill]);
const IMAGES = new Set([
    PDF_OPS.paintImageXObject,
    PDF_OPS.paintInlineImageXObject,
    PDF_OPS.paintImageMaskXObject,
    PDF_OPS.paintImageXObjectRepeat,
]);
/** Thickness (points) under which a filled rectangle is a rule line. */
const THIN = 2.5;
/** A sink mapping page user space to the upright frame with `toUpright`. */
export function graphicsSink(toUpright) {
    const segments = [];
    const images = [];
    const addLine = (a, b) => {
        if (Math.abs(a[1] - b[1]) < 1 && Math.abs(a[0] - b[0]) >= 3) {
            segments.push({
                kind: 'h',
                at: (a[1] + b[1]) / 2,
                from: Math.min(a[0], b[0]),
                to: Math.max(a[0], b[0]),
            });
        }
        else if (Math.abs(a[0] - b[0]) < 1 && Math.abs(a[1] - b[1]) >= 3) {
            segments.push({
                kind: 'v',
                at: (a[0] + b[0]) / 2,
                from: Math.min(a[1], b[1]),
                to: Math.max(a[1], b[1]),
            });
        }
    };
    return {
        graphics: { segments, images },
        image(ctm) {
            const point = (x, y) => {
                const [ux, uy] = apply(ctm, x, y);
                return toUpright(ux, uy);
            };
            images.push(boxOf([point(0, 0), point(1, 0), point(1, 1), point(0, 1)]));
        },
        path(op, data, ctm) {
            const stroke = STROKES.has(op);
            const fill = FILLS.has(op);
            if (!stroke && !fill)
                return;
            const point = (x, y) => {
                const [ux, uy] = apply(ctm, x, y);
                return toUpright(ux, uy);
            };
            let subpath = [];
            const flush = () => {
                if (subpath.length < 2) {
                    subpath = [];
                    return;
                }
                if (stroke) {
                    for (let k = 1; k < subpath.length; k++) {
                        const a = subpath[k - 1];
                        const b = subpath[k];
                        if (a && b)
                            addLine(a, b);
                    }
                }
                else {
                    const box = boxOf(subpath);
                    const w = box.right - box.left;
                    const h = box.bottom - box.top;
                    if (h <= THIN && w > 3)
                        addLine([box.left, (box.top + box.bottom) / 2], [box.right, (box.top + box.bottom) / 2]);
                    else if (w <= THIN && h > 3)
                        addLine([(box.left + box.right) / 2, box.top], [(box.left + box.right) / 2, box.bottom]);
                }
                subpath = [];
            };
            let start;
            for (let k = 0; k < data.length;) {
                const code = data[k];
                if (code === 0) {
                    flush();
                    start = point(data[k + 1] ?? 0, data[k + 2] ?? 0);
                    subpath.push(start);
                    k += 3;
                }
                else if (code === 1) {
                    subpath.push(point(data[k + 1] ?? 0, data[k + 2] ?? 0));
                    k += 3;
                }
                else if (code === 2) {
                    // Curves are not rules; keep the end point so the path stays connected.
                    flush();
                    start = point(data[k + 5] ?? 0, data[k + 6] ?? 0);
                    subpath.push(start);
                    k += 7;
                }
                else if (code === 3) {
                    flush();
                    start = point(data[k + 3] ?? 0, data[k + 4] ?? 0);
                    subpath.push(start);
                    k += 5;
                }
                else if (code === 4) {
                    if (start)
                        subpath.push(start);
                    k += 1;
                }
                else {
                    break;
                }
            }
            flush();
        },
    };
}
/**
 * Reads ruling lines (stroked segments and thin filled rectangles) and image placements from a
 * pdf.js operator list, tracking the transformation matrix through save/restore and forms.
 * `toUpright` maps page user space to the upright frame.
 */
export function readPageGraphics(operatorList, toUpright, maxOps = 500_000) {
    const sink = graphicsSink(toUpright);
    const stack = [];
    let ctm = [1, 0, 0, 1, 0, 0];
    const count = Math.min(operatorList.fnArray.length, maxOps);
    for (let i = 0; i < count; i++) {
        const fn = operatorList.fnArray[i];
        const args = operatorList.argsArray[i];
        switch (fn) {
            case PDF_OPS.save:
                stack.push(ctm);
                break;
            case PDF_OPS.restore:
                ctm = stack.pop() ?? ctm;
                break;
            case PDF_OPS.transform:
                if (args && args.length >= 6)
                    ctm = multiply(ctm, args);
                break;
            case PDF_OPS.paintFormXObjectBegin: {
                stack.push(ctm);
                const matrix = args?.[0];
                if (matrix && matrix.length >= 6)
                    ctm = multiply(ctm, matrix);
                break;
            }
            case PDF_OPS.paintFormXObjectEnd:
                ctm = stack.pop() ?? ctm;
                break;
            case PDF_OPS.constructPath: {
                const data = args?.[1]?.[0];
                if (data)
                    sink.path(args?.[0], data, ctm);
                break;
            }
            default:
                if (fn !== undefined && IMAGES.has(fn))
                    sink.image(ctm);
        }
    }
    return sink.graphics;
}
//# sourceMappingURL=page-graphics.js.map