import type { OcrWordPx } from './ocr-pool.ts';

/** A word's or region's box on the page image, in pixels. */
export type PixelBox = OcrWordPx['bbox'];

/** The smallest box holding every one of `boxes`. */
export function unionBox(boxes: readonly PixelBox[]): PixelBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

function area(box: PixelBox): number {
  return Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
}

/** The share of `box`'s area that `other` covers. */
export function coveredShare(box: PixelBox, other: PixelBox): number {
  const overlap = area({
    x0: Math.max(box.x0, other.x0),
    y0: Math.max(box.y0, other.y0),
    x1: Math.min(box.x1, other.x1),
    y1: Math.min(box.y1, other.y1),
  });
  return overlap / Math.max(1, area(box));
}

/**
 * Where a part cut out of the page by `cropGray` starts: the region's corner, clipped at the
 * image's edges as `cropGray` clips it. A word read in the part is at its box moved by this.
 */
export function cropOrigin(region: PixelBox): { readonly x: number; readonly y: number } {
  return { x: Math.max(0, Math.floor(region.x0)), y: Math.max(0, Math.floor(region.y0)) };
}

/** `box` moved by `x` and `y` pixels. */
export function movedBox(box: PixelBox, x: number, y: number): PixelBox {
  return { x0: box.x0 + x, y0: box.y0 + y, x1: box.x1 + x, y1: box.y1 + y };
}
