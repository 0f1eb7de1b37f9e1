/**
 * The normalized document view the processors work on: pages with lines, labelled fields and
 * tables, each carrying the geometry and OCR confidence needed for citations. It is built from
 * one or more {@link ParseRunOutput}s (one per file on package runs) by build-view.ts and is the
 * input of every {@link Provider}.
 */
import type { ParseRunOutput, Point } from '../../parse/parse-output.ts';
import type { LineSegment } from './reline-page.ts';
/** Where a piece of text sits: the file, the page and its polygon in points. */
export interface DocumentRegion {
    /** The file the text comes from (set on package runs and when the caller knows it). */
    readonly fileId?: string | undefined;
    /** 1-based page number within its file. */
    readonly page: number;
    readonly pageWidth: number;
    readonly pageHeight: number;
    /** Corner points; empty when the source format has no geometry. */
    readonly polygon: readonly Point[];
    /** 0..1, null when the source had no OCR word confidences. */
    readonly ocrConfidence: number | null;
}
/** One line of text. */
export interface DocumentLine extends DocumentRegion {
    readonly text: string;
    /** Position of the line in its page, 0-based. */
    readonly index: number;
    /** Pieces with their own polygons, when the line was merged from several blocks. */
    readonly segments?: readonly LineSegment[];
    /** The text keeps the page's column positions (spatial layout text): align by characters. */
    readonly layout?: boolean;
    /** For layout text: the character column the (trimmed) text starts at. */
    readonly column?: number;
    /**
     * The line is a row of a table block: the table is the block's, and the row is among the
     * page's lines so that the lines read the whole page in order.
     */
    readonly block?: 'table';
}
/** A labelled value: a key-value block, or a line such as "Invoice number: INV-001". */
export interface DocumentField {
    readonly label: string;
    readonly value: string;
    /**
     * Where the value was found: a key-value block, after the label on its line, in the next cell
     * of the label's row, under the label, or in a table (a label column, or a header over one row).
     */
    readonly source: 'key_value' | 'line' | 'row' | 'below' | 'table';
    /** Where the value is. */
    readonly region: DocumentRegion;
    /** The line the label is on, when the field came from text (index into the page's lines). */
    readonly lineIndex: number | null;
}
/** A table cell. */
export interface DocumentCell {
    readonly text: string;
    readonly region: DocumentRegion;
}
/** A table: a header row and body rows (cells aligned by column). */
export interface DocumentTable {
    readonly page: number;
    readonly fileId?: string;
    readonly header: readonly DocumentCell[];
    readonly rows: readonly (readonly DocumentCell[])[];
}
/** One page of one file. */
export interface DocumentPage {
    /** 1-based page number within its file. */
    readonly number: number;
    readonly fileId?: string;
    readonly width: number;
    readonly height: number;
    /** The sheet of a spreadsheet page (0-based index). */
    readonly sheetIndex?: number;
    readonly lines: readonly DocumentLine[];
    readonly fields: readonly DocumentField[];
    readonly tables: readonly DocumentTable[];
    /** The page's lines joined with newlines. */
    readonly text: string;
}
/** A document as processors see it: its pages in order (file by file on package runs). */
export interface DocumentView {
    readonly pages: readonly DocumentPage[];
    /** The files the pages come from, in order; empty when unknown. */
    readonly fileIds: readonly string[];
}
/** A parse output and the file it belongs to. */
export interface ParsedFile {
    readonly output: ParseRunOutput;
    readonly fileId?: string;
}
//# sourceMappingURL=document-view.d.ts.map