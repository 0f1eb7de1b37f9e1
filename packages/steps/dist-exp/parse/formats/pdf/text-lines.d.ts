import type { BoundingBox } from '../../parse-output.ts';
import type { TextRun } from './text-runs.ts';
/** A piece of a text line in the upright frame: runs on one baseline without a wide gap. */
export interface LinePiece {
    readonly text: string;
    readonly box: BoundingBox;
    readonly baseline: number;
    /** The largest text size of its runs. */
    readonly size: number;
    /** Every run of it is bold. */
    readonly bold: boolean;
    /** Every run of it is set in a fixed-pitch font. */
    readonly mono?: boolean;
}
/** Run text without control characters, whitespace (tabs, line breaks) as single spaces. */
export declare function cleanText(text: string): string;
/** Groups runs into line pieces: same baseline, left to right, split at wide gaps. */
export declare function buildPieces(runs: readonly TextRun[]): LinePiece[];
/** A visual line: the pieces of one row of a region, left to right. */
export interface TextLine extends LinePiece {
    /** Its pieces (more than one: a row of separated cells, a label and its value). */
    readonly cells: readonly LinePiece[];
}
/** True when `next` continues `line`'s row: the same baseline, further right. */
export declare function sameRow(line: LinePiece, next: LinePiece): boolean;
/** Joins pieces of one row (consecutive in reading order) into one line. */
export declare function joinRow(pieces: readonly LinePiece[]): TextLine;
//# sourceMappingURL=text-lines.d.ts.map