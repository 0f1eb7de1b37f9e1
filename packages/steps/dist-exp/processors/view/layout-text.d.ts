/**
 * The `spatial` target's layout text: recognising it, and giving its lines the geometry of the
 * block lines (relined from the chunk's blocks) that hold the same words.
 */
import type { Block, Point } from '../../parse/parse-output.ts';
export interface GeometryLine {
    readonly key: string;
    readonly words: ReadonlySet<string>;
    readonly polygon: readonly Point[];
    readonly ocrConfidence: number | null;
}
/** The lines of a chunk's blocks, relined from their geometry, for matching layout text to. */
export declare function blockLines(blocks: readonly Block[]): GeometryLine[];
/** The geometry line with the same words as `text` (exactly, else the largest overlap). */
export declare function bestGeometry(text: string, lines: readonly GeometryLine[]): GeometryLine | undefined;
/** True for the layout-preserving text of the `spatial` target (column gaps, kept indentation). */
export declare function isLayoutText(content: string): boolean;
//# sourceMappingURL=layout-text.d.ts.map