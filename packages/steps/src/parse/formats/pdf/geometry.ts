import type { BoundingBox } from '../../parse-output.ts';

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
}

/** The frame that turns text running at `angle` (viewport degrees) into left-to-right text. */
export function uprightFrame(angle: number, width: number, height: number): UprightFrame {
  switch (angle) {
    case 90:
      return { width: height, height: width, extraRotation: 270, map: (x, y) => [y, width - x] };
    case 180:
      return { width, height, extraRotation: 180, map: (x, y) => [width - x, height - y] };
    case 270:
      return { width: height, height: width, extraRotation: 90, map: (x, y) => [height - y, x] };
    default:
      return { width, height, extraRotation: 0, map: (x, y) => [x, y] };
  }
}

/** The box around points. */
export function boxOf(points: readonly (readonly [number, number])[]): BoundingBox {
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const [x, y] of points) {
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { left, top, right, bottom };
}

/** Clamps a box into the page. */
export function clampBox(box: BoundingBox, width: number, height: number): BoundingBox {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  return {
    left: clamp(box.left, width),
    top: clamp(box.top, height),
    right: clamp(box.right, width),
    bottom: clamp(box.bottom, height),
  };
}
