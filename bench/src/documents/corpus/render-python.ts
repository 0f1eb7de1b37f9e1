/**
 * A layout as a job for the Python producers (`python-producers.py`): ReportLab draws a PDF
 * (platypus flowables or canvas calls), python-docx writes a DOCX, openpyxl writes an XLSX whose
 * line amounts may be formulas without cached values (openpyxl never computes them). Each half
 * draws its own look per producer: fonts, drawing mode, table styles, how pairs are written.
 */
import type { Locale } from './locales.ts';
import type { CorpusSet, Element, LayoutDoc } from './model.ts';
import type { Random } from './random.ts';
import { pageSize } from './render-html.ts';
import { type SheetCell, type SheetRow, sheetRows } from './render-odf.ts';

/** The producers the Python script implements. */
export type PythonProducer = 'reportlab' | 'python-docx' | 'openpyxl';

/** How ReportLab draws a document. */
export interface ReportLabLook {
  /** `platypus`: Paragraphs, Tables and Spacers flowed by a DocTemplate; `canvas`: drawString calls. */
  readonly drawing: 'platypus' | 'canvas';
  /** A standard 14 font family (`Helvetica`, `Times-Roman`, `Courier`) or a TTF Debian ships. */
  readonly font: string;
  /** Paragraph leading as a multiple of the size. */
  readonly leading: number;
  /** Table padding in points. */
  readonly padding: number;
}

/** How python-docx writes a document. */
export interface DocxLook {
  readonly font: string;
  /** A built-in table style of python-docx's default template. */
  readonly tableStyle: string;
  /** Lines of one text element: separate paragraphs or one paragraph with line breaks. */
  readonly lines: 'paragraphs' | 'breaks';
  /** `tab` pairs: a tab stop in one paragraph or a borderless two-column table. */
  readonly tabPairs: 'tabstop' | 'table';
  /** Large bold titles as Word headings (`Heading 1`) rather than formatted runs. */
  readonly headings: boolean;
}

/** One cell openpyxl writes: text, a number, or a formula without a cached value. */
export interface XlsxCell {
  readonly text?: string;
  readonly number?: number;
  readonly formula?: string;
  /** An Excel number format for numbers and formulas. */
  readonly format?: string;
  readonly bold?: boolean;
  readonly size?: number;
  readonly align?: 'left' | 'center' | 'right';
  readonly border?: 'grid' | 'below';
  readonly shade?: boolean;
}

export interface XlsxLook {
  readonly font: string;
  readonly sheetTitle: string;
  /** Line amounts as `=B5*C5` (no cached value); totals as `=SUM(…)` when `totals` too. */
  readonly formulas: boolean;
  readonly totals: boolean;
}

export type PythonJob =
  | {
      readonly producer: 'reportlab';
      readonly out: string;
      readonly layout: LayoutDoc;
      readonly page: { readonly width: number; readonly height: number; readonly margin: number };
      readonly look: ReportLabLook;
      /** Pages to turn with `/Rotate` after writing (qpdf), 1-based; none when absent. */
      readonly rotate?: readonly number[];
    }
  | {
      readonly producer: 'python-docx';
      readonly out: string;
      readonly layout: LayoutDoc;
      readonly page: { readonly width: number; readonly height: number; readonly margin: number };
      readonly look: DocxLook;
    }
  | {
      readonly producer: 'openpyxl';
      readonly out: string;
      readonly rows: readonly (readonly (XlsxCell | null)[])[];
      readonly widths: readonly number[];
      readonly look: XlsxLook;
    };

const LOOKS = {
  development: {
    reportlabDrawing: ['platypus', 'platypus', 'canvas'],
    reportlabFonts: ['Helvetica', 'Times-Roman', 'DejaVuSans', 'DejaVuSerif', 'Helvetica'],
    docxFonts: ['Calibri', 'Arial', 'Liberation Sans'],
    tableStyles: ['Table Grid', 'Light Grid Accent 1', 'Light List'],
    sheetTitles: ['Sheet', 'Document', 'Invoice data'],
    formulas: 0.7,
    totals: 0.4,
  },
  'held-out': {
    reportlabDrawing: ['canvas', 'canvas', 'platypus'],
    reportlabFonts: ['Courier', 'LiberationSerif', 'DejaVuSansCondensed', 'Times-Roman'],
    docxFonts: ['Cambria', 'Times New Roman', 'Georgia', 'Liberation Serif'],
    tableStyles: ['Light Shading Accent 1', 'Medium Shading 1 Accent 1', 'Light List Accent 2'],
    sheetTitles: ['Sheet1', 'Export', 'Report'],
    formulas: 0.9,
    totals: 0.7,
  },
} as const;

/** The job that makes `out` from `layout` with `producer`, its look drawn from `r`. */
export function pythonJob(
  producer: PythonProducer,
  layout: LayoutDoc,
  locale: Locale,
  set: CorpusSet,
  r: Random,
  out: string,
  /** ReportLab's drawing mode when the caller fixes it (drawn from the half's looks otherwise). */
  drawing?: ReportLabLook['drawing'],
): PythonJob {
  const looks = LOOKS[set];
  const { width, height } = pageSize(layout);
  const margin = layout.paper === 'receipt' ? 14 : r.pick([42, 50, 56, 72]);
  // What a drawn document (PDF, DOCX) is made from: its layout on its page.
  const drawn = { out, layout, page: { width, height, margin } };
  switch (producer) {
    case 'reportlab':
      return {
        producer,
        ...drawn,
        look: {
          drawing: drawing ?? r.pick(looks.reportlabDrawing),
          font: layout.font.kind === 'mono' ? 'Courier' : r.pick(looks.reportlabFonts),
          leading: r.pick([1.15, 1.2, 1.3]),
          padding: r.pick([2, 3, 4]),
        },
      };
    case 'python-docx':
      return {
        producer,
        ...drawn,
        look: {
          font: r.pick(looks.docxFonts),
          tableStyle: r.pick(looks.tableStyles),
          lines: r.pick(['paragraphs', 'breaks']),
          tabPairs: set === 'development' ? r.pick(['tabstop', 'tabstop', 'table']) : 'table',
          headings: r.chance(0.5),
        },
      };
    case 'openpyxl': {
      const look: XlsxLook = {
        font: r.pick(looks.docxFonts),
        sheetTitle: r.pick(looks.sheetTitles),
        formulas: r.chance(looks.formulas),
        totals: r.chance(looks.totals),
      };
      return { producer, out, look, ...sheet(layout, locale, look) };
    }
  }
}

/** A money or quantity cell's number in `locale`'s notation, or null. */
export function numberOf(text: string, locale: Locale): number | null {
  const t = text.trim();
  if (!/\d/.test(t) || /[a-z]{4,}/i.test(t)) return null;
  const negative = /^\(.*\)$/.test(t) || /-\s*[^\d]*\d/.test(t) || /\d\s*-$/.test(t);
  const digits = t.replace(/[^\d.,]/g, '');
  const group = locale.decimal === '.' ? /,/g : /\./g;
  const plain = digits.replace(group, '').replace(/[ \u00a0\u202f']/g, '');
  const normal = locale.decimal === ',' ? plain.replace(',', '.') : plain;
  if (!/^\d+(\.\d+)?$/.test(normal)) return null;
  const n = Number(normal);
  return negative ? -n : n;
}

const COLS = 6;
/**
 * The number format that shows a number as `text` showed it around its digits: `€12.50` gives
 * `"€"#,##0.00`, `12,50 EUR` gives `#,##0.00" EUR"` (the currency the truth holds stays printed).
 */
export function moneyFormat(text: string): string {
  const t = text
    .trim()
    .replace(/^\(|\)$/g, '')
    .replace(/^-|-$/g, '');
  const first = t.search(/\d/);
  const last = t.length - [...t].reverse().join('').search(/\d/);
  const quote = (s: string) => (s === '' ? '' : `"${s.replace(/"/g, '')}"`);
  if (first < 0) return '#,##0.00';
  return `${quote(t.slice(0, first).replace(/-/g, ''))}#,##0.00${quote(t.slice(last))}`;
}

/** Column letter of a 0-based index. */
const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * The layout's rows in a grid six columns wide (as Calc gets them), with each item row whose
 * quantity times unit price is its amount written as numbers and a formula, and a total equal to
 * the sum of those amounts written as `=SUM(…)`.
 */
function sheet(
  layout: LayoutDoc,
  locale: Locale,
  look: XlsxLook,
): { rows: (XlsxCell | null)[][]; widths: number[] } {
  const rows: (XlsxCell | null)[][] = [];
  const amountCells: { ref: string; value: number }[] = [];
  const plainRow = (row: SheetRow) => row.map((c) => (c ? cellOf(c) : null));
  const add = (e: Element) => {
    if (e.kind !== 'table' || !look.formulas) {
      for (const row of sheetRows(e, COLS, layout.size)) rows.push(plainRow(row));
      return;
    }
    const [header, ...body] = sheetRows(e, COLS, layout.size);
    if (header) rows.push(plainRow(header));
    for (const row of body) {
      const cells = plainRow(row);
      const found = productIn(row, locale);
      const n = rows.length + 1;
      if (found) {
        const [q, u, a] = found.at;
        const sq = row[q] as SheetCell;
        const su = row[u] as SheetCell;
        const sa = row[a] as SheetCell;
        cells[q] = { ...styleOf(sq), number: found.values[0] };
        cells[u] = { ...styleOf(su), number: found.values[1], format: moneyFormat(su.text) };
        cells[a] = {
          ...styleOf(sa),
          formula: `=${letter(q)}${n}*${letter(u)}${n}`,
          format: moneyFormat(sa.text),
        };
        amountCells.push({ ref: `${letter(a)}${n}`, value: found.values[2] });
      }
      rows.push(cells);
    }
  };
  for (const e of layout.body) add(e);
  if (look.totals && amountCells.length > 1) {
    const sum = Math.round(amountCells.reduce((s, c) => s + c.value, 0) * 100) / 100;
    const refs = amountCells.map((c) => c.ref);
    const first = rows.findIndex((row) =>
      row.some((c, i) => {
        const n = c?.text ? numberOf(c.text, locale) : null;
        return n !== null && Math.abs(n - sum) < 0.005 && i > 0 && row[i - 1]?.text;
      }),
    );
    if (first >= 0) {
      const row = rows[first] as (XlsxCell | null)[];
      const i = row.findIndex((c) => {
        const n = c?.text ? numberOf(c.text, locale) : null;
        return n !== null && Math.abs(n - sum) < 0.005;
      });
      const { text, ...style } = row[i] as XlsxCell;
      row[i] = {
        ...style,
        formula: `=SUM(${refs.join(',')})`,
        format: moneyFormat(text ?? ''),
      };
    }
  }
  const widths = Array.from({ length: COLS }, (_, i) =>
    Math.min(48, Math.max(8, ...rows.map((row) => (row[i]?.text?.length ?? 0) + 2))),
  );
  return { rows, widths };
}

function cellOf(c: SheetCell): XlsxCell {
  return { text: c.text, ...styleOf(c) };
}

function styleOf(c: SheetCell): XlsxCell {
  return {
    ...(c.bold ? { bold: true } : {}),
    ...(c.size ? { size: c.size } : {}),
    ...(c.align ? { align: c.align } : {}),
    ...(c.border ? { border: c.border } : {}),
    ...(c.shade ? { shade: true } : {}),
  };
}

/** Three numeric cells of a row with `quantity × unit = amount`, left to right. */
function productIn(
  row: SheetRow,
  locale: Locale,
): { at: [number, number, number]; values: [number, number, number] } | null {
  const nums = row
    .map((c, i) => ({ i, n: c ? numberOf(c.text, locale) : null }))
    .filter((x): x is { i: number; n: number } => x.n !== null);
  for (const a of nums)
    for (const q of nums)
      for (const u of nums) {
        if (q.i === u.i || a.i === q.i || a.i === u.i) continue;
        if (a.i < q.i || a.i < u.i || q.i > u.i) continue;
        if (Math.abs(q.n * u.n - a.n) < 0.005 && Number.isInteger(q.n) && q.n > 0)
          return { at: [q.i, u.i, a.i], values: [q.n, u.n, a.n] };
      }
  return null;
}
