import type { BoundingBox } from '../../parse-output.ts';
import { type Matrix, type UprightFrame } from './geometry.ts';
/** A pdf.js text item, the fields we read. */
export interface PdfTextItem {
    readonly str: string;
    readonly width: number;
    readonly height: number;
    readonly transform: readonly number[];
    readonly fontName: string;
    readonly hasEOL?: boolean;
}
/** A text run in the upright frame (points, top-left origin). */
export interface TextRun {
    readonly text: string;
    readonly box: BoundingBox;
    readonly baseline: number;
    readonly size: number;
    readonly bold: boolean;
    /** Set in a fixed-pitch font (a code listing). */
    readonly mono?: boolean;
    /** Degrees of the run relative to the upright frame (0 for normal text). */
    readonly angle: number;
}
/**
 * Places pdf.js text items in the upright frame: the viewport (which applies `/Rotate`) turned
 * further so that the dominant text direction reads left to right.
 */
export declare function placeTextRuns(items: readonly PdfTextItem[], viewportTransform: Matrix, viewportWidth: number, viewportHeight: number, fonts: {
    readonly bold: ReadonlySet<string>;
    readonly mono: ReadonlySet<string>;
}, detectRotation: boolean): {
    runs: TextRun[];
    frame: UprightFrame;
};
/** Convenience for a point through a viewport transform and a frame. */
export declare function toUpright(frame: UprightFrame, viewportTransform: Matrix, x: number, y: number): [number, number];
//# sourceMappingURL=text-runs.d.ts.map