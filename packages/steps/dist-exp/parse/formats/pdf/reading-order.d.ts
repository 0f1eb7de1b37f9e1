import type { BoundingBox } from '../../parse-output.ts';
/** Something placed on a page. */
export interface Placed {
    readonly box: BoundingBox;
    /** The text size of a text line; blocks (tables, figures) have none and measure nothing. */
    readonly size: number | undefined;
    /** A text line's text and baseline. */
    readonly line: {
        readonly text: string;
        readonly baseline: number;
    } | undefined;
}
/** Where the text of one size starts and ends in a column. */
export interface ColumnExtent {
    readonly left: number;
    readonly right: number;
}
/** An element in reading order with the extent of the text of its size in its column. */
export interface Ordered<T extends Placed> {
    readonly element: T;
    /**
     * The leftmost start and rightmost end of the text of the element's size in the column it was
     * found in: where a full line of it starts and ends (a larger title or a wider table does not
     * move them).
     */
    readonly column: ColumnExtent;
}
/**
 * Reading order by recursive XY-cut: columns first (a vertical gap through the region that
 * leaves several elements on each side, unless the two sides pair up as rows: labels and
 * values, a table without rules), then bands (horizontal gaps), left to right within a band. Each element comes with the right edge of the text of the column it ended up in.
 */
export declare function readingOrder<T extends Placed>(elements: readonly T[]): Ordered<T>[];
//# sourceMappingURL=reading-order.d.ts.map