import type { BlockDetails, BlockPage, BlockSheet, BlockType, BoundingBox, OcrWord, OutputPageMetadata, Point, TableCellDetails } from './parse-output.ts';
/** A block before ids are assigned: what a format parser produces. */
export interface DraftBlock {
    readonly type: BlockType;
    /** The block's `content`. */
    readonly content: string;
    /** How the block reads inside a markdown chunk; '' leaves it out (table cells). */
    readonly markdown: string;
    readonly details: BlockDetails;
    /** Points, upright frame. */
    readonly boundingBox?: BoundingBox;
    /** Corner points when they differ from the box (rotated text, barcodes). */
    readonly polygon?: readonly Point[];
    /** 1–6 for headings; a new `section` chunk starts at a heading. */
    readonly headingLevel?: number;
    /** Child blocks (a table's cells), emitted after their parent with its id as parentBlockId. */
    readonly children?: readonly DraftBlock[];
    /**
     * A table's cells in columnar form, emitted after `children` as table_cell blocks without
     * geometry or OCR: a large sheet's 600,000 cells without a draft object each.
     */
    readonly cells?: {
        readonly contents: readonly string[];
        readonly details: readonly TableCellDetails[];
    };
    /** 0..1 OCR confidences, when the text came from OCR. */
    readonly ocr?: {
        readonly min: number;
        readonly avg: number;
    };
    readonly words?: readonly OcrWord[];
}
/** A page, a sheet, or the whole of a pageless document. */
export interface DraftUnit {
    /** 1-based; the number used in chunk `pageRange`. */
    readonly pageNumber: number;
    readonly page?: BlockPage;
    readonly sheet?: BlockSheet;
    readonly blocks: readonly DraftBlock[];
    /** The unit laid out as fixed-width text, for the `spatial` target. */
    readonly spatial?: string;
}
/** What a format parser returns. */
export interface DraftDocument {
    readonly units: readonly DraftUnit[];
    readonly pages: readonly OutputPageMetadata[] | null;
    /** The MIME type the content was parsed as, when it differs from the original. */
    readonly finalMimeType?: string;
    /** Billable pages (pages parsed, sheets, or 1 for pageless formats). */
    readonly pageCount: number;
    readonly ocrPageCount?: number;
    /** PDF pages parse_auto found simple (billed at the light rate). */
    readonly simplePageCount?: number;
}
//# sourceMappingURL=draft-document.d.ts.map