/**
 * The shapes of the parse configuration and output (ParseConfig, ParseRunOutput, Chunk,
 * Block, block details, output metadata). Names follow the interface exactly; other packages read
 * these types, so changes here are additive only.
 */
/** The interface's ParseConfig.target. `spatial` supports page chunking only. */
export type ParseTarget = 'markdown' | 'spatial';
/** The interface chunking strategy types. `section` is not supported with the `spatial` target. */
export type ChunkingStrategyType = 'page' | 'document' | 'section';
/** The interface's ParseConfig.chunkingStrategy. */
export interface ChunkingStrategy {
    readonly type: ChunkingStrategyType;
    /** Strategy options; the interface does not name them, so they are passed through untouched. */
    readonly options?: Readonly<Record<string, unknown>>;
}
/** The interface's ParseConfig.engine. */
export type ParseEngine = 'parse_performance' | 'parse_light' | 'parse_auto';
/** The interface blockOptions.figures. */
export interface FigureBlockOptions {
    readonly enabled?: boolean;
    /** Up to 2000 characters; requires `enabled: true`. */
    readonly customInstructions?: string;
    /** When true (the default), figure blocks carry an `imageUrl` clip. */
    readonly imageClippingEnabled?: boolean;
    /** Classify figures into a `figureType`. */
    readonly classificationEnabled?: boolean;
    /** Summarise figures into their block content. */
    readonly summarizationEnabled?: boolean;
}
/** The interface blockOptions.tables / blockOptions.text: the agentic correction switch. */
export interface AgenticBlockOptions {
    readonly agentic?: {
        /** Default false; extra credits on pages where correction triggers. */
        readonly enabled?: boolean;
        readonly customInstructions?: string;
    };
}
/** The interface blockOptions.barcodes. */
export interface BarcodeBlockOptions {
    readonly imageClippingEnabled?: boolean;
    readonly readingEnabled?: boolean;
}
/** Options for a block kind the interface names without fields (keyValue, formulas). */
export interface ToggleBlockOptions {
    readonly enabled?: boolean;
}
/** The interface's ParseConfig.blockOptions. */
export interface ParseBlockOptions {
    readonly figures?: FigureBlockOptions;
    readonly tables?: AgenticBlockOptions;
    readonly text?: AgenticBlockOptions;
    readonly keyValue?: ToggleBlockOptions;
    readonly barcodes?: BarcodeBlockOptions;
    readonly formulas?: ToggleBlockOptions;
}
/** The interface's PageRangesItems: inclusive, 1-based; `end` defaults to 750. */
export interface PageRange {
    readonly start: number;
    readonly end?: number;
}
/** The interface excelParsingMode. */
export type ExcelParsingMode = 'basic' | 'advanced';
/** The interface formattingDetection item. */
export interface FormattingDetection {
    readonly type: 'change_tracking';
}
/** The interface's ParseConfigAdvancedOptions. */
export interface ParseConfigAdvancedOptions {
    /** Default true. */
    readonly pageRotationEnabled?: boolean;
    readonly pageRanges?: readonly PageRange[];
    readonly excelParsingMode?: ExcelParsingMode;
    /** Default false. */
    readonly excelSkipHiddenContent?: boolean;
    /** Default false. */
    readonly excelUseRawCellValues?: boolean;
    /** Default true. */
    readonly excelSkipCalculation?: boolean;
    /** Default false; requires excelParsingMode `advanced`. */
    readonly excelIncludeCellMetadata?: boolean;
    /** Default false; requires excelParsingMode `advanced`. */
    readonly excelIncludeCellFormatting?: boolean;
    readonly formattingDetection?: readonly FormattingDetection[];
    readonly returnOcr?: {
        /** Word-level OCR confidences. */
        readonly words?: boolean;
    };
}
/** The interface's ParseConfig. Every field is optional; defaults are applied by the parser. */
export interface ParseConfig {
    /** Default `markdown`. */
    readonly target?: ParseTarget;
    /** Default `{ type: 'page' }`. */
    readonly chunkingStrategy?: ChunkingStrategy;
    /** Default `parse_performance`. */
    readonly engine?: ParseEngine;
    /** Default `latest`. */
    readonly engineVersion?: string;
    readonly blockOptions?: ParseBlockOptions;
    readonly advancedOptions?: ParseConfigAdvancedOptions;
}
/** A point in points (1/72 inch), origin top-left of the upright page. */
export interface Point {
    readonly x: number;
    readonly y: number;
}
/** The interface boundingBox, in points in the upright frame. */
export interface BoundingBox {
    readonly left: number;
    readonly top: number;
    readonly right: number;
    readonly bottom: number;
}
/** The interface's Block.metadata.page. */
export interface BlockPage {
    /** 1-based page number. */
    readonly number: number;
    /** Points. */
    readonly width: number;
    /** Points. */
    readonly height: number;
}
/** The interface's Block.metadata.sheet. */
export interface BlockSheet {
    /** 0-based sheet index. */
    readonly index: number;
    readonly name: string;
}
/** The interface's Block.metadata. */
export interface BlockMetadata {
    readonly page?: BlockPage;
    readonly sheet?: BlockSheet;
    /** 0..1; null when word confidence is unavailable. */
    readonly minOcrConfidence?: number | null;
    /** 0..1; null when word confidence is unavailable. */
    readonly avgOcrConfidence?: number | null;
    /** One entry per OCR word when `advancedOptions.returnOcr.words` is true. */
    readonly ocrWords?: readonly OcrWord[];
}
/** A recognised word with its confidence (returnOcr.words). */
export interface OcrWord {
    readonly text: string;
    /** 0..1. */
    readonly confidence: number;
    readonly boundingBox: BoundingBox;
}
/** The interface block types. */
export type BlockType = 'text' | 'table' | 'table_cell' | 'figure' | 'key_value' | 'barcode' | 'formula';
/** The interface's CellFormatting. */
export interface CellFormatting {
    readonly bold?: boolean;
    readonly italic?: boolean;
    /** Hex, `#RRGGBB`. */
    readonly fontColor?: string;
    /** Hex, `#RRGGBB`. */
    readonly backgroundColor?: string;
}
/** The interface text_details. */
export interface TextDetails {
    readonly type: 'text_details';
    /** Excel A1 notation; only with excelIncludeCellMetadata. */
    readonly cellReference?: string;
}
/** The interface table_details. */
export interface TableDetails {
    readonly type: 'table_details';
    readonly rowCount: number;
    readonly columnCount: number;
}
/** The interface table_cell_details. */
export interface TableCellDetails {
    readonly type: 'table_cell_details';
    /** 0-based. */
    readonly rowIndex: number;
    /** 0-based. */
    readonly columnIndex: number;
    readonly cellReference?: string;
    /** With a leading `=`. */
    readonly formula?: string;
    readonly formatting?: CellFormatting;
    /**
     * Set on a formula cell the workbook holds no result for (openpyxl writes none): `missing`
     * (not calculated: `excelSkipCalculation` is true, the default, or the calculation failed,
     * see `formulaError`) or `calculated` (by docflow). Cells with a cached result have none. Not
     * named by the interface; additive.
     */
    readonly formulaValue?: 'missing' | 'calculated';
    /** Why a formula without a cached result has no value when calculated. Additive. */
    readonly formulaError?: string;
}
/** The interface figureType values. */
export type FigureType = 'other' | 'chart' | 'image' | 'diagram' | 'logo';
/** The interface figure_details. */
export interface FigureDetails {
    readonly type: 'figure_details';
    readonly imageUrl?: string;
    readonly figureType?: FigureType;
}
/** The interface barcode_details. */
export interface BarcodeDetails {
    readonly type: 'barcode_details';
    readonly imageUrl?: string;
    readonly decodedValue?: string;
    /** ZXing format name, e.g. `QRCode`, `Code128`. */
    readonly format?: string;
}
/** The interface formula_details. */
export interface FormulaDetails {
    readonly type: 'formula_details';
    readonly latex?: string;
}
/** The interface key_value_details. */
export interface KeyValueDetails {
    readonly type: 'key_value_details';
    /** The field's name (AcroForm field name). Not named by the interface; additive. */
    readonly key?: string;
    /** The field's value as text. Not named by the interface; additive. */
    readonly value?: string;
}
/** The empty details object the interface allows. */
export type EmptyDetails = Readonly<Record<string, never>>;
/** The interface block details, discriminated by `type`. */
export type BlockDetails = TextDetails | TableDetails | TableCellDetails | FigureDetails | BarcodeDetails | FormulaDetails | KeyValueDetails | EmptyDetails;
/** The interface's Block. */
export interface Block {
    readonly object: 'block';
    readonly id: string;
    /** The containing block (a table for its cells), else null. */
    readonly parentBlockId: string | null;
    readonly type: BlockType;
    readonly content: string;
    readonly details: BlockDetails;
    readonly metadata: BlockMetadata;
    /** Corner points in points, upright frame; empty when the format has no geometry. */
    readonly polygon: readonly Point[];
    /** Null when the format has no geometry (DOCX, CSV, …). */
    readonly boundingBox: BoundingBox | null;
}
/** The interface's Chunk.metadata. */
export interface ChunkMetadata {
    /** Inclusive, 1-based. */
    readonly pageRange: {
        readonly start: number;
        readonly end: number;
    };
    readonly minOcrConfidence: number | null;
    readonly avgOcrConfidence: number | null;
    /** The sheet of an EXCEL chunk. */
    readonly sheet?: BlockSheet;
}
/** The interface's Chunk. */
export interface Chunk {
    readonly object: 'chunk';
    readonly type: ChunkingStrategyType;
    readonly content: string;
    readonly metadata: ChunkMetadata;
    readonly blocks: readonly Block[];
}
/** The interface output metadata page entry. */
export interface OutputPageMetadata {
    /** 1-based. */
    readonly number: number;
    /** Clockwise degrees applied to make the page upright; null if detection was disabled. */
    readonly rotationApplied: number | null;
    /** Points, before rotation. */
    readonly originalPageWidth: number;
    /** Points, before rotation. */
    readonly originalPageHeight: number;
    /** Coordinates are scaled to this DPI (72 = points). */
    readonly dpi: number;
}
/** The interface's ParseRunOutput.metadata. */
export interface ParseOutputMetadata {
    readonly originalMimeType: string;
    readonly finalMimeType: string;
    readonly pages: readonly OutputPageMetadata[] | null;
}
/** The interface's ParseRunOutput. */
export interface ParseRunOutput {
    readonly chunks: readonly Chunk[];
    readonly metadata: ParseOutputMetadata | null;
}
/** The interface's ParseRun failureReason values that PARSE produces. */
export type ParseFailureReason = 'UNABLE_TO_DOWNLOAD_FILE' | 'FILE_TYPE_NOT_SUPPORTED' | 'FILE_SIZE_TOO_LARGE' | 'CORRUPT_FILE' | 'OCR_ERROR' | 'PASSWORD_PROTECTED_FILE' | 'FAILED_TO_CONVERT_TO_PDF' | 'FAILED_TO_CONVERT_TO_JPEG' | 'FAILED_TO_GENERATE_TARGET_FORMAT' | 'CHUNKING_ERROR' | 'INTERNAL_ERROR' | 'INVALID_CONFIG_OPTIONS' | 'OUT_OF_CREDITS';
/** The interface's ParseRunMetrics (fields not shown by the interface; these are docflow's). */
export interface ParseRunMetrics {
    readonly processingTimeMs: number;
    readonly pageCount: number;
    /** Pages that went through OCR. */
    readonly ocrPageCount: number;
}
//# sourceMappingURL=parse-output.d.ts.map