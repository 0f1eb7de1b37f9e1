/** Polygons of views: boxes, rectangles, slices of a line's polygon, regions with new polygons. */
import type { Point } from '../../parse/parse-output.ts';
import type { DocumentLine, DocumentRegion } from './document-view.ts';
export declare function boxOf(polygon: readonly Point[]): {
    left: number;
    top: number;
    right: number;
    bottom: number;
} | null;
export declare function rect(left: number, top: number, right: number, bottom: number): Point[];
/** The polygon of characters `from..to` of a line whose polygon spans its whole text. */
export declare function slicePolygon(polygon: readonly Point[], textLength: number, from: number, to: number): readonly Point[];
/** The polygon of characters `from..to` of a line, through its segments when it has them. */
export declare function linePolygon(line: DocumentLine, from: number, to: number): readonly Point[];
/** A region of `r` with another polygon (a literal, not a spread: this runs per table cell). */
export declare function regionOf(r: DocumentRegion, polygon?: readonly Point[]): DocumentRegion;
//# sourceMappingURL=view-geometry.d.ts.map