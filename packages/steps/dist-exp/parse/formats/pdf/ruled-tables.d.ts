import type { BoundingBox } from '../../parse-output.ts';
import type { Segment } from './page-graphics.ts';
/** A table found from ruling lines: row and column boundaries in the upright frame. */
export interface RuledTable {
    readonly box: BoundingBox;
    /** Ascending y of the horizontal rules (rows + 1 values). */
    readonly rows: readonly number[];
    /** Ascending x of the vertical rules (columns + 1 values). */
    readonly columns: readonly number[];
}
/**
 * Groups ruling lines into grids: connected horizontal and vertical rules form a table whose
 * row boundaries are the distinct y of its horizontals and column boundaries the distinct x of
 * its verticals. Needs at least 2 rows and 2 columns (a box around a paragraph is not a table)
 * and a frame: outer rules along the whole box (see {@link framed}), and inner rules that mostly
 * run through it (see {@link ruledThrough}).
 */
export declare function findRuledTables(segments: readonly Segment[], maxSegments?: number): RuledTable[];
//# sourceMappingURL=ruled-tables.d.ts.map