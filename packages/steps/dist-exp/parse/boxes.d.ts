import type { BoundingBox, Point } from './parse-output.ts';
/** The four corners of a box, clockwise from top-left. */
export declare function boxPolygon(box: BoundingBox): Point[];
/** The smallest box around boxes; undefined for none. */
export declare function unionBoxes(boxes: readonly (BoundingBox | undefined)[]): BoundingBox | undefined;
/** Rounds a coordinate to 1/100 point: enough precision, stable output. */
export declare function round2(value: number): number;
/** The box around points. */
export declare function boxOf(points: readonly (readonly [number, number])[]): BoundingBox;
/** Clamps a box into the page. */
export declare function clampBox(box: BoundingBox, width: number, height: number): BoundingBox;
//# sourceMappingURL=boxes.d.ts.map