/** A 2D affine matrix `[a, b, c, d, e, f]` as PDF writes it. */
export type Matrix = readonly [number, number, number, number, number, number];
/** `m1 × m2`: apply m2 first, then m1 (pdf.js `Util.transform`). */
export declare function multiply(m1: Matrix, m2: Matrix): Matrix;
/** Applies a matrix to a point. */
export declare function apply(m: Matrix, x: number, y: number): [number, number];
/**
 * Maps viewport coordinates (top-left origin, y down, `/Rotate` applied) into the upright
 * frame, for content whose dominant text direction is `angle` degrees (0, 90, 180, 270,
 * clockwise on screen). The result reads left to right.
 */
export interface UprightFrame {
    readonly width: number;
    readonly height: number;
    /** Clockwise degrees applied on top of the viewport. */
    readonly extraRotation: number;
    map(x: number, y: number): [number, number];
    /** The x of {@link map}, without an array (for loops over every text run). */
    mapX(x: number, y: number): number;
    /** The y of {@link map}. */
    mapY(x: number, y: number): number;
}
/** The frame that turns text running at `angle` (viewport degrees) into left-to-right text. */
export declare function uprightFrame(angle: number, width: number, height: number): UprightFrame;
//# sourceMappingURL=geometry.d.ts.map