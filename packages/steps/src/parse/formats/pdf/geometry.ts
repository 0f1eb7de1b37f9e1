/** A 2D affine matrix `[a, b, c, d, e, f]` as PDF writes it. */
export type Matrix = readonly [number, number, number, number, number, number];

/** `m1 × m2`: apply m2 first, then m1 (pdf.js `Util.transform`). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/** Applies a matrix to a point. */
export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

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
export function uprightFrame(angle: number, width: number, height: number): UprightFrame {
  switch (angle) {
    case 90:
      return {
        width: height,
        height: width,
        extraRotation: 270,
        map: (x, y) => [y, width - x],
        mapX: (_x, y) => y,
        mapY: (x) => width - x,
      };
    case 180:
      return {
        width,
        height,
        extraRotation: 180,
        map: (x, y) => [width - x, height - y],
        mapX: (x) => width - x,
        mapY: (_x, y) => height - y,
      };
    case 270:
      return {
        width: height,
        height: width,
        extraRotation: 90,
        map: (x, y) => [height - y, x],
        mapX: (_x, y) => height - y,
        mapY: (x) => x,
      };
    default:
      return {
        width,
        height,
        extraRotation: 0,
        map: (x, y) => [x, y],
        mapX: (x) => x,
        mapY: (_x, y) => y,
      };
  }
}
