import { isDateFormat } from '@docflow/formulas';
import type { CellFormatting } from '../parse-output.ts';
import {
  type Attributes,
  OfficePackage,
  relationships,
  type XmlHandler,
} from './office-package.ts';
import type { ZipEntry } from './zip-measure.ts';

/**
 * A streaming XLSX reader: the workbook's parts found through their relationships, shared
 * strings and styles read whole, each sheet's XML inflated and tokenised (htmlparser2 in XML
 * mode) as it streams, its rows handed over as they close. Nothing of a sheet is held but the
 * row being read. Decision 0027 says why docflow reads XLSX itself.
 */

/** What every cell of one `cellXfs` entry shares: its number format and formatting. */
export interface XlsxStyle {
  /** The number format's code, `undefined` for General. */
  readonly numFmt: string | undefined;
  /** The number format shows dates or times. */
  readonly date: boolean;
  /** Bold, italic, font colour, fill; `undefined` when none. One frozen object per distinct one. */
  readonly formatting: CellFormatting | undefined;
}

/** A cell's value as stored: a constant, or a formula's cached result. */
export type XlsxValue = string | number | boolean | { readonly error: string } | null;

export interface XlsxCell {
  /** 1-based. */
  readonly column: number;
  /** `null` for an empty cell, or a formula without a cached result. */
  readonly value: XlsxValue;
  /** The formula without `=`, shared formulas moved to this cell. */
  readonly formula: string | undefined;
  readonly style: XlsxStyle;
}

export interface XlsxRow {
  /** 1-based. */
  readonly number: number;
  readonly hidden: boolean;
  readonly cells: readonly XlsxCell[];
}

export interface XlsxSheet {
  readonly name: string;
  readonly hidden: boolean;
  /** Filled as the sheet streams: its `<cols>` come before its rows. */
  readonly hiddenColumns: ReadonlySet<number>;
  rows(): AsyncIterable<XlsxRow>;
}

const GENERAL_STYLE: XlsxStyle = Object.freeze({
  numFmt: undefined,
  date: false,
  formatting: undefined,
});

/** The number formats every workbook has without declaring them (ECMA-376 §18.8.30). */
const BUILTIN_FORMATS: Readonly<Record<number, string>> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00 ;(#,##0.00)',
  40: '#,##0.00 ;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

function sharedStrings(book: OfficePackage, path: string | undefined): string[] {
  const entry = path ? book.entry(path) : undefined;
  const strings: string[] = [];
  if (!entry) return strings;
  let current = '';
  let inText = false;
  // Phonetic runs (`<rPh>`) are reading aids, not the cell's text.
  let phonetic = 0;
  book.read(entry, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = phonetic === 0;
      else if (name === 'rPh') phonetic++;
    },
    text(text) {
      if (inText) current += text;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(current);
    },
  });
  return strings;
}

function argbToHex(argb: string | undefined): string | undefined {
  if (!argb || !/^[0-9a-f]{6,8}$/i.test(argb)) return undefined;
  return `#${argb.slice(-6).toUpperCase()}`;
}

/** `<b/>` and `<b val="1"/>` are on, `<b val="0"/>` off. */
function on(a: Attributes): boolean {
  return a.val === undefined || (a.val !== '0' && a.val !== 'false');
}

function styles(book: OfficePackage, path: string | undefined): XlsxStyle[] {
  const entry = path ? book.entry(path) : undefined;
  if (!entry) return [];
  const formats = new Map<number, string>();
  const fonts: { bold?: boolean; italic?: boolean; fontColor?: string }[] = [];
  const fills: { backgroundColor?: string }[] = [];
  const xfs: { numFmtId: number; fontId: number; fillId: number }[] = [];
  let section = '';
  let font: (typeof fonts)[number] | undefined;
  let fill: { pattern?: string; color?: string | undefined } | undefined;
  book.read(entry, {
    open(name, a) {
      switch (name) {
        case 'numFmt':
          if (a.numFmtId && a.formatCode !== undefined)
            formats.set(Number(a.numFmtId), a.formatCode);
          break;
        case 'fonts':
        case 'fills':
        case 'cellXfs':
        case 'cellStyleXfs':
        case 'dxfs':
          section = name;
          break;
        case 'font':
          if (section === 'fonts') font = {};
          break;
        case 'b':
          if (font && on(a)) font.bold = true;
          break;
        case 'i':
          if (font && on(a)) font.italic = true;
          break;
        case 'color':
          if (font) {
            const color = argbToHex(a.rgb);
            if (color) font.fontColor = color;
          }
          break;
        case 'fill':
          if (section === 'fills') fill = {};
          break;
        case 'patternFill':
          if (fill) fill.pattern = a.patternType ?? 'none';
          break;
        case 'fgColor':
          if (fill) fill.color = argbToHex(a.rgb);
          break;
        case 'xf':
          if (section === 'cellXfs') {
            xfs.push({
              numFmtId: Number(a.numFmtId ?? 0),
              fontId: Number(a.fontId ?? 0),
              fillId: Number(a.fillId ?? 0),
            });
          }
          break;
      }
    },
    close(name) {
      if (name === 'font' && font) {
        fonts.push(font);
        font = undefined;
      } else if (name === 'fill' && fill) {
        fills.push(
          fill.pattern && fill.pattern !== 'none' && fill.color
            ? { backgroundColor: fill.color }
            : {},
        );
        fill = undefined;
      } else if (name === section) {
        section = '';
      }
    },
  });
  // One frozen formatting object per distinct formatting, shared by every cell that has it.
  const shared = new Map<string, CellFormatting>();
  return xfs.map(({ numFmtId, fontId, fillId }) => {
    const formatting = { ...fonts[fontId], ...fills[fillId] };
    const key = `${formatting.bold}|${formatting.italic}|${formatting.fontColor}|${formatting.backgroundColor}`;
    let frozen: CellFormatting | undefined;
    if (Object.keys(formatting).length > 0) {
      frozen = shared.get(key) ?? Object.freeze(formatting);
      shared.set(key, frozen);
    }
    const numFmt =
      numFmtId === 0 ? undefined : (formats.get(numFmtId) ?? BUILTIN_FORMATS[numFmtId]);
    return Object.freeze({
      numFmt,
      date: numFmt !== undefined && isDateFormat(numFmt),
      formatting: frozen,
    });
  });
}

/** `A` → 1, `AB` → 28. */
function columnNumber(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
  return n;
}

/** 1 → `A`, 28 → `AB`. */
export function columnLetters(column: number): string {
  let out = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  }
  return out;
}

/** The column of a cell reference (`B12` → 2), 0 when it has none (this sees every cell). */
function referenceColumn(reference: string): number {
  let n = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code >= 65 && code <= 90) n = n * 26 + (code - 64);
    else if (code !== 36) break;
  }
  return n;
}

/**
 * A shared formula as it reads in a cell `rows` and `columns` away from the cell that holds its
 * text: relative references move, `$` parts and string literals do not (as Excel copies it).
 */
export function moveFormula(formula: string, rows: number, columns: number): string {
  if (rows === 0 && columns === 0) return formula;
  return formula.replace(
    /("(?:[^"]|"")*")|('(?:[^']|'')*'!)|(?<![A-Za-z0-9_.])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![A-Za-z0-9_(])/g,
    (match, text, sheet, absColumn, letters, absRow, digits) => {
      if (text !== undefined || sheet !== undefined) return match;
      const column = absColumn ? columnNumber(letters) : columnNumber(letters) + columns;
      const row = absRow ? Number(digits) : Number(digits) + rows;
      if (column < 1 || row < 1) return '#REF!';
      return `${absColumn}${columnLetters(column)}${absRow}${row}`;
    },
  );
}

/** Excel's serial date epoch: a date's serial number is its day count from it. */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

function storedValue(type: string, text: string, strings: readonly string[]): XlsxValue {
  switch (type) {
    case 's':
      return strings[Number(text)] ?? '';
    case 'str':
    case 'inlineStr':
      return text;
    case 'b':
      return text === '1' || text === 'true';
    case 'e':
      return { error: text };
    case 'd': {
      const time = Date.parse(text);
      return Number.isNaN(time) ? text : (time - EXCEL_EPOCH) / 86_400_000;
    }
    default: {
      const number = Number(text);
      return text.trim() === '' || Number.isNaN(number) ? text : number;
    }
  }
}

/** One sheet's rows, read as its XML streams. */
async function* sheetRows(
  book: OfficePackage,
  entry: ZipEntry,
  strings: readonly string[],
  styleList: readonly XlsxStyle[],
  hiddenColumns: Set<number>,
): AsyncGenerator<XlsxRow> {
  const ready: XlsxRow[] = [];
  const sharedFormulas = new Map<string, { text: string; row: number; column: number }>();
  let rowNumber = 0;
  let rowHidden = false;
  let cells: XlsxCell[] = [];
  let column = 0;
  let type = '';
  let style: XlsxStyle = GENERAL_STYLE;
  let text = '';
  let value: string | undefined;
  let formula: string | undefined;
  let shared: { si: string; master: boolean } | undefined;
  let inValue = false;
  let inFormula = false;
  let inInline = 0;
  let inInlineText = false;
  let phonetic = 0;
  const handler: XmlHandler = {
    open(name, a) {
      switch (name) {
        case 'row':
          rowNumber = a.r ? Number(a.r) : rowNumber + 1;
          rowHidden = a.hidden === '1' || a.hidden === 'true';
          cells = [];
          column = 0;
          break;
        case 'c': {
          column = (a.r ? referenceColumn(a.r) : 0) || column + 1;
          type = a.t ?? 'n';
          style = (a.s ? styleList[Number(a.s)] : styleList[0]) ?? GENERAL_STYLE;
          value = undefined;
          formula = undefined;
          shared = undefined;
          break;
        }
        case 'v':
          inValue = true;
          text = '';
          break;
        case 'f':
          inFormula = true;
          text = '';
          shared =
            a.t === 'shared' && a.si !== undefined
              ? { si: a.si, master: a.ref !== undefined }
              : undefined;
          break;
        case 'is':
          inInline++;
          text = '';
          break;
        case 't':
          inInlineText = inInline > 0 && phonetic === 0;
          break;
        case 'rPh':
          phonetic++;
          break;
        case 'col':
          if (a.hidden === '1' || a.hidden === 'true') {
            const last = Math.min(Number(a.max ?? a.min), 16_384);
            for (let c = Number(a.min); c <= last; c++) hiddenColumns.add(c);
          }
          break;
      }
    },
    text(chunk) {
      if (inValue || inFormula || inInlineText) text += chunk;
    },
    close(name) {
      switch (name) {
        case 'v':
          inValue = false;
          value = text;
          break;
        case 'f':
          inFormula = false;
          if (shared?.master || !shared) {
            formula = text === '' ? undefined : text;
            if (shared && formula !== undefined) {
              sharedFormulas.set(shared.si, { text: formula, row: rowNumber, column });
            }
          } else {
            const master = sharedFormulas.get(shared.si);
            formula = master
              ? moveFormula(master.text, rowNumber - master.row, column - master.column)
              : undefined;
          }
          break;
        case 't':
          inInlineText = false;
          break;
        case 'is':
          inInline--;
          value = text;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c':
          if (value !== undefined || formula !== undefined) {
            cells.push({
              column,
              // An empty `<v></v>` holds no number: openpyxl writes one for every formula it
              // stores (it calculates none), which is then a formula without a cached result.
              value:
                value === undefined || (value === '' && type === 'n')
                  ? null
                  : storedValue(type, value, strings),
              formula,
              style,
            });
          }
          break;
        case 'row':
          ready.push({ number: rowNumber, hidden: rowHidden, cells });
          break;
      }
    },
  };
  for await (const _ of book.stream(entry, handler)) {
    for (const row of ready) yield row;
    ready.length = 0;
  }
}

/**
 * The sheets of an XLSX workbook in their order, each read when its turn comes. Throws on a
 * container or part that cannot be read (the caller reports CORRUPT_FILE).
 */
export function readWorkbook(bytes: Uint8Array): XlsxSheet[] {
  const book = new OfficePackage(bytes);
  const root = relationships(book, '');
  const documentPath =
    [...root.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbookEntry = book.entry(documentPath);
  if (!workbookEntry) throw new Error(`the workbook part ${documentPath} is missing`);
  const rels = relationships(book, documentPath);
  const byType = (suffix: string) =>
    [...rels.values()].find((r) => r.type.endsWith(suffix))?.target;
  const strings = sharedStrings(book, byType('/sharedStrings'));
  const styleList = styles(book, byType('/styles'));
  const sheets: XlsxSheet[] = [];
  book.read(workbookEntry, {
    open(name, a) {
      if (name !== 'sheet') return;
      const id = a['r:id'] ?? Object.entries(a).find(([key]) => key.endsWith(':id'))?.[1];
      const target = id ? rels.get(id)?.target : undefined;
      const entry = target ? book.entry(target) : undefined;
      if (!entry) return;
      const hiddenColumns = new Set<number>();
      sheets.push({
        name: a.name ?? `Sheet${sheets.length + 1}`,
        hidden: a.state === 'hidden' || a.state === 'veryHidden',
        hiddenColumns,
        rows: () => sheetRows(book, entry, strings, styleList, hiddenColumns),
      });
    },
  });
  return sheets;
}
