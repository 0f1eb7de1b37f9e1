import type { BoundingBox } from '../../parse-output.ts';
import { type Matrix } from './geometry.ts';
/** pdf.js operator ids we read (stable across 5.x: `OPS` in pdf.js). */
export declare const PDF_OPS: {
    readonly save: 10;
    readonly restore: 11;
    readonly transform: 12;
    readonly stroke: 20;
    readonly closeStroke: 21;
    readonly fill: 22;
    readonly eoFill: 23;
    readonly fillStroke: 24;
    readonly eoFillStroke: 25;
    readonly closeFillStroke: 26;
    readonly closeEOFillStroke: 27;
    readonly endPath: 28;
    readonly paintFormXObjectBegin: 74;
    readonly paintFormXObjectEnd: 75;
    readonly paintImageMaskXObject: 83;
    readonly paintImageXObject: 85;
    readonly paintInlineImageXObject: 86;
    readonly paintImageXObjectRepeat: 88;
    readonly constructPath: 91;
};
/** An axis-aligned ruling line in the upright frame. */
export interface Segment {
    /** `h`: y fixed, from x1 to x2; `v`: x fixed, from y1 to y2. */
    readonly kind: 'h' | 'v';
    readonly at: number;
    readonly from: number;
    readonly to: number;
}
/** What the operator list tells about a page beyond its text. */
export interface PageGraphics {
    readonly segments: Segment[];
    /** Image placements, upright frame. */
    readonly images: BoundingBox[];
}
/**
 * Receives painted paths and images, whatever reads the page (the pdf.js operator list or the
 * raw content stream), and keeps ruling lines and image placements in the upright frame.
 */
export interface GraphicsSink {
    /**
     * A path painted by pdf.js paint operator `op` (an `OPS` id) under `ctm`; `data` holds pdf.js
     * path codes (0 moveTo x y, 1 lineTo x y, 2 curveTo x1 y1 x2 y2 x y, 3 quadratic, 4 close).
     */
    path(op: number, data: ArrayLike<number>, ctm: Matrix): void;
    /** An image painted into the unit square under `ctm`. */
    image(ctm: Matrix): void;
    /** What was collected so far. */
    readonly graphics: PageGraphics;
}
/** A sink mapping page user space to the upright frame with `toUpright`. */
export declare function graphicsSink(toUpright: (x: number, y: number) => [number, number]): GraphicsSink;
/**
 * Reads ruling lines (stroked segments and thin filled rectangles) and image placements from a
 * pdf.js operator list, tracking the transformation matrix through save/restore and forms.
 * `toUpright` maps page user space to the upright frame.
 */
export declare function readPageGraphics(operatorList: {
    fnArray: readonly number[];
    argsArray: readonly unknown[];
}, toUpright: (x: number, y: number) => [number, number], maxOps?: number): PageGraphics;
//# sourceMappingURL=page-graphics.d.ts.map