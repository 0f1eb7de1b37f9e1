/**
 * The shapes shared by the evaluation corpus: document types and their ground truth, the
 * producer-neutral layout a template builds (rendered to HTML, flat ODF or PostScript by the
 * renderers), and the manifest the generator writes beside the files.
 */

/** The document types of the corpus. */
export const DOC_TYPES = [
  'invoice',
  'receipt',
  'purchase_order',
  'bank_statement',
  'letter',
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** Which half of the template families a document comes from. */
export type CorpusSet = 'development' | 'held-out';

/** The software that made a PDF (or the other file) from the generated source. */
export type Producer =
  | 'chromium' // Chromium's headless print-to-PDF of HTML
  | 'writer-html' // LibreOffice Writer converting HTML
  | 'writer-odt' // LibreOffice Writer converting flat ODT (tab stops, page fields)
  | 'writer-docx' // LibreOffice Writer converting a DOCX it wrote from flat ODT
  | 'calc' // LibreOffice Calc converting a flat ODS sheet
  | 'ghostscript' // Ghostscript's pdfwrite distilling PostScript we write
  | 'ghostscript-redistill' // Ghostscript re-distilling a Chromium or LibreOffice PDF
  | 'scan' // a PDF rasterised, skewed, speckled and wrapped as an image PDF by Ghostscript
  | 'reportlab' // ReportLab (Python) drawing a PDF with platypus flowables or canvas calls
  | 'python-docx' // python-docx writing a DOCX (parsed as DOCX, not converted)
  | 'openpyxl'; // openpyxl writing an XLSX, formulas without cached values (parsed as XLSX)

/** A ground-truth value: text, a number, an ISO date (`yyyy-mm-dd`), or absent. */
export type Scalar = string | number | null;

/** What a document says, in the canonical field names of its type. */
export interface Truth {
  readonly fields: Readonly<Record<string, Scalar>>;
  /** Line items, transactions or purchased items (empty for letters). */
  readonly items: readonly Readonly<Record<string, Scalar>>[];
}

export type Align = 'left' | 'center' | 'right';

export interface TextStyle {
  /** Points; the document's base size when absent. */
  readonly size?: number;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly align?: Align;
  /** Letter spacing in points (logos, titles). */
  readonly spacing?: number;
  /** A grey for secondary text. */
  readonly muted?: boolean;
}

/**
 * How label/value pairs are laid out: `colon` "Label: value" on one line; `tab` label at the
 * left, value in a column to its right (left or right aligned); `stacked` label above value;
 * `grid` a ruled two-column table; `across` labels in a row, values in the row below.
 */
export type PairMode = 'colon' | 'tab' | 'stacked' | 'grid' | 'across';

/** Table rules: none, a line under the header, every cell ruled, or shaded header and rows. */
export type RuleStyle = 'none' | 'header' | 'grid' | 'shaded';

export type Element =
  | { readonly kind: 'text'; readonly lines: readonly string[]; readonly style?: TextStyle }
  | {
      readonly kind: 'columns';
      readonly columns: readonly (readonly Element[])[];
      /** Fractions of the content width, one per column. */
      readonly widths: readonly number[];
    }
  | {
      readonly kind: 'pairs';
      readonly pairs: readonly (readonly [string, string])[];
      readonly mode: PairMode;
      /** Where values sit in `tab` mode, and the block's alignment otherwise. */
      readonly align?: Align;
      readonly boldLabels?: boolean;
      readonly style?: TextStyle;
    }
  | {
      readonly kind: 'table';
      readonly header: readonly string[];
      readonly rows: readonly (readonly string[])[];
      readonly align: readonly Align[];
      /** Fractions of the content width. */
      readonly widths: readonly number[];
      readonly rules: RuleStyle;
      readonly style?: TextStyle;
    }
  | { readonly kind: 'rule' }
  | { readonly kind: 'space'; readonly lines: number };

/** A font as each renderer names it. */
export interface FontChoice {
  /** The fontconfig family (HTML, ODF). */
  readonly family: string;
  /** The PostScript base name (regular) and its bold face. */
  readonly ps: string;
  readonly psBold: string;
  readonly kind: 'sans' | 'serif' | 'mono';
}

/** What footers carry: "Page 1 of 3", "Page 1", "1/3", or nothing. */
export type PageNumbers = 'page-of' | 'page' | 'slash' | 'none';

/** A document laid out independently of the software that will render it. */
export interface LayoutDoc {
  readonly font: FontChoice;
  /** Base text size in points. */
  readonly size: number;
  readonly paper: 'a4' | 'letter' | 'receipt';
  /** Lines repeated at the top of every page (a running letterhead), when any. */
  readonly running?: readonly string[];
  readonly body: readonly Element[];
  readonly pageNumbers: PageNumbers;
}

/** One generated document as the manifest records it. */
export interface CorpusDocument {
  readonly id: string;
  readonly set: CorpusSet;
  readonly type: DocType;
  /** The template family (layout and wording), e.g. `invoice/ledger`. */
  readonly family: string;
  readonly producer: Producer;
  /** For scans: the producer of the PDF that was scanned. */
  readonly scannedFrom?: Producer;
  /** The PDF (a DOCX or XLSX for python-docx and openpyxl), relative to the corpus folder. */
  readonly file: string;
  /** Pages turned by `/Rotate 90` after the producer wrote them (1-based), when any. */
  readonly rotatedPages?: readonly number[];
  /** Other renditions of the same document (DOCX, XLSX written by LibreOffice). */
  readonly alternates?: readonly { readonly producer: Producer; readonly file: string }[];
  /** PDF pages (absent for a DOCX or XLSX, which their producers do not paginate). */
  readonly pages?: number;
  readonly truth: Truth;
}

/** Several documents one after another in one PDF. */
export interface CorpusPacket {
  readonly id: string;
  readonly set: CorpusSet;
  readonly file: string;
  /** How the PDFs were joined. */
  readonly joinedWith: 'qpdf' | 'ghostscript';
  readonly pages: number;
  /** What makes this packet hard, e.g. "receipt + receipt". */
  readonly theme: string;
  readonly documents: readonly {
    readonly id: string;
    readonly type: DocType;
    readonly family: string;
    readonly producer: Producer;
    readonly startPage: number;
    readonly endPage: number;
  }[];
}

/** A long document of no type (for text recall and speed), in neither half. */
export interface CorpusReport {
  readonly file: string;
  readonly producer: Producer;
  readonly pages: number;
}

/** The generator's manifest (`manifest.json` in the corpus folder). */
export interface CorpusManifest {
  readonly seed: number;
  readonly generatedAt: string;
  readonly tools: Readonly<Record<string, string>>;
  readonly documents: readonly CorpusDocument[];
  readonly packets: readonly CorpusPacket[];
  readonly reports?: readonly CorpusReport[];
}
