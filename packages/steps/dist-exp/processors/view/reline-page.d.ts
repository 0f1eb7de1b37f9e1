/**
 * Rebuilds text lines from block geometry. Layout-aware PDF parsers emit one block per
 * paragraph (its lines joined by spaces) and one block per table cell; label/value and table
 * detection need lines. Here a paragraph block taller than one line is cut back into as many
 * lines as its height holds, at the word breaks that best fit the block's width and look like
 * line starts ("Label:", a capitalised word, a number); then blocks that share a baseline band
 * are merged into one line whose cells keep their own polygons.
 */
import type { Point } from '../../parse/parse-output.ts';
/** A piece of a line with its own polygon (a table cell or a text run). */
export interface LineSegment {
    readonly start: number;
    readonly end: number;
    readonly polygon: readonly Point[];
}
/** A line as the view builder holds it. */
export interface RelineInput {
    readonly text: string;
    readonly polygon: readonly Point[];
    readonly ocrConfidence: number | null;
    readonly segments?: readonly LineSegment[];
}
/**
 * Cuts `text` into `k` lines of at most about `capacity` characters, choosing the breaks with
 * the best {@link breakBonus}; null when no such cut exists.
 */
export declare function wrapInto(text: string, k: number, capacity: number): string[] | null;
/**
 * Relines one page. Lines without geometry are returned unchanged (in place), so formats
 * without coordinates keep their order.
 */
export declare function relinePage<T extends RelineInput>(lines: readonly T[], make: (base: T, text: string, polygon: readonly Point[], segments?: readonly LineSegment[]) => T): T[];
//# sourceMappingURL=reline-page.d.ts.map