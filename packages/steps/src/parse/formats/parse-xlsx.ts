import { Readable } from 'node:stream';
import { compileNumberFormat, formatGeneral } from '@docflow/formulas';
import ExcelJS from 'exceljs';
import type { DraftBlock, DraftDocument, DraftUnit } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { CellFormatting, TableCellDetails } from '../parse-output.ts';
import { markdownTable, markdownTableRow, markdownTableSeparator } from './markdown-table.ts';
import {
  type Calculated,
  type CellScalar,
  calculateFormulas,
  cellKey,
  type PendingFormula,
  type SheetValues,
} from './xlsx-formulas.ts';

/** Above this size workbooks are read with exceljs's streaming reader. */
const STREAM_ABOVE_BYTES = 2 * 1024 * 1024;

interface CellLike {
  readonly value: unknown;
  readonly numFmt?: string;
  readonly font?: { bold?: boolean; italic?: boolean; color?: { argb?: string } };
  readonly fill?: { type?: string; pattern?: string; fgColor?: { argb?: string } };
  readonly address: string;
  /** exceljs's style model: shared by every cell of one style in a streamed sheet. */
  readonly style?: object;
}

interface RowLike {
  readonly number: number;
  readonly hidden: boolean;
  eachCell(
    options: { includeEmpty: boolean },
    callback: (cell: CellLike, column: number) => void,
  ): void;
}

interface SheetLike {
  readonly name: string;
  readonly hidden: boolean;
  readonly hiddenColumns: ReadonlySet<number>;
  rows(): AsyncIterable<RowLike> | Iterable<RowLike>;
}

function argbToHex(argb: string | undefined): string | undefined {
  if (!argb || !/^[0-9a-f]{6,8}$/i.test(argb)) return undefined;
  return `#${argb.slice(-6).toUpperCase()}`;
}

/** Distinct values in ascending order; rows arrive sorted, so the sort is usually skipped. */
function distinctSorted(values: readonly number[]): readonly number[] {
  let ascending = true;
  for (let i = 1; i < values.length && ascending; i++) {
    ascending = (values[i] ?? 0) > (values[i - 1] ?? 0);
  }
  return ascending ? values : [...new Set(values)].sort((a, b) => a - b);
}

/**
 * Maps each of `sorted` (distinct, ascending) to its rank (0, 1, …): the dense row and column
 * indices of cells once the rows and columns without any kept cell are left out.
 */
function denseIndex(sorted: readonly number[]): (value: number) => number {
  const max = sorted[sorted.length - 1] ?? 0;
  // A typed array beats a Map for the usual ranges (rows ≤ 1,048,576, columns ≤ 16,384).
  if (max <= 1 << 21) {
    const ranks = new Int32Array(max + 1);
    sorted.forEach((value, rank) => {
      ranks[value] = rank;
    });
    return (value) => ranks[value] ?? 0;
  }
  const ranks = new Map(sorted.map((value, rank) => [value, rank]));
  return (value) => ranks.get(value) ?? 0;
}

/** The formula of a cell value, with a leading `=`. */
function formulaOf(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const record = value as { formula?: string; sharedFormula?: string };
    const formula = record.formula ?? record.sharedFormula;
    if (typeof formula === 'string') return `=${formula}`;
  }
  return undefined;
}

/** Excel's serial date epoch: a date's serial number is its day count from it. */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** A cell value as formulas read it (see {@link CellScalar}); `undefined` for a formula without a result. */
function scalarOf(value: unknown): CellScalar | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  if (value instanceof Date) return (value.getTime() - EXCEL_EPOCH) / 86_400_000;
  if (typeof value === 'object') {
    const record = value as {
      result?: unknown;
      richText?: { text: string }[];
      text?: unknown;
      error?: string;
      formula?: string;
      sharedFormula?: string;
    };
    if (record.richText) return record.richText.map((part) => part.text).join('');
    if (record.error !== undefined) return { error: String(record.error) };
    if (record.formula !== undefined || record.sharedFormula !== undefined) {
      return record.result === undefined ? undefined : scalarOf(record.result);
    }
    if (record.text !== undefined) return scalarOf(record.text);
  }
  return null;
}

/** True for a formula cell the workbook holds no result for (openpyxl writes none). */
function withoutResult(value: unknown): boolean {
  if (!value || typeof value !== 'object' || value instanceof Date) return false;
  const record = value as { formula?: unknown; sharedFormula?: unknown; result?: unknown };
  return (
    (record.formula !== undefined || record.sharedFormula !== undefined) &&
    record.result === undefined
  );
}

/** The text a calculated value shows, as a cached one would. */
function calculatedText(value: CellScalar, numFmt: string | undefined, raw: boolean): string {
  if (value === null) return '';
  if (typeof value === 'object') return value.error;
  return cellText(value, numFmt, raw);
}

/**
 * The displayed (or raw) text of a cell value. The value is read once by the caller: exceljs
 * copies a formula value on every read of `cell.value`.
 */
function cellText(cellValue: unknown, numFmt: string | undefined, raw: boolean): string {
  let value = cellValue;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const record = value as {
      result?: unknown;
      richText?: { text: string }[];
      text?: unknown;
      hyperlink?: string;
      error?: string;
      formula?: string;
      sharedFormula?: string;
    };
    if (record.richText) return record.richText.map((part) => part.text).join('');
    if (record.error !== undefined) return String(record.error);
    if (record.formula !== undefined || record.sharedFormula !== undefined) value = record.result;
    else if (record.text !== undefined)
      // A hyperlink's text is shown as General: the link, not the cell, carries it.
      return typeof record.text === 'string' ? record.text : cellText(record.text, undefined, raw);
  }
  if (value === null || value === undefined) return '';
  if (value && typeof value === 'object' && 'error' in value)
    return String((value as { error: unknown }).error);
  if (typeof value === 'number') return raw ? String(value) : compileNumberFormat(numFmt)(value);
  if (value instanceof Date)
    return raw ? value.toISOString() : compileNumberFormat(numFmt ?? 'yyyy-mm-dd')(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return typeof value === 'string' ? value : formatGeneral(Number(value));
}

function formattingOf(cell: CellLike): CellFormatting | undefined {
  const formatting: {
    bold?: boolean;
    italic?: boolean;
    fontColor?: string;
    backgroundColor?: string;
  } = {};
  if (cell.font?.bold) formatting.bold = true;
  if (cell.font?.italic) formatting.italic = true;
  const fontColor = argbToHex(cell.font?.color?.argb);
  if (fontColor) formatting.fontColor = fontColor;
  if (cell.fill?.type === 'pattern' && cell.fill.pattern !== 'none') {
    const background = argbToHex(cell.fill.fgColor?.argb);
    if (background) formatting.backgroundColor = background;
  }
  return Object.keys(formatting).length > 0 ? formatting : undefined;
}

/**
 * Formatting objects shared between cells: a streamed sheet has a handful of styles for
 * hundreds of thousands of cells, and each cell's details would otherwise hold its own copy.
 * Shared objects are frozen so that no consumer can change one cell's formatting through
 * another's.
 */
function sharedFormatting(): (cell: CellLike) => CellFormatting | undefined {
  const byStyle = new WeakMap<object, CellFormatting | null>();
  const byKey = new Map<string, CellFormatting>();
  return (cell) => {
    const style = cell.style;
    const known = style ? byStyle.get(style) : undefined;
    if (known !== undefined) return known ?? undefined;
    const formatting = formattingOf(cell);
    let shared: CellFormatting | null = null;
    if (formatting) {
      const key = `${formatting.bold}|${formatting.italic}|${formatting.fontColor}|${formatting.backgroundColor}`;
      shared = byKey.get(key) ?? Object.freeze(formatting);
      byKey.set(key, shared);
    }
    if (style) byStyle.set(style, shared);
    return shared ?? undefined;
  };
}

/** The bytes as a Buffer over the same memory: a copy would add the file's size to the peak. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function* streamSheets(bytes: Uint8Array): AsyncGenerator<SheetLike> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([asBuffer(bytes)]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const worksheet of reader) {
    const sheet = worksheet as unknown as { name: string; state?: string } & AsyncIterable<RowLike>;
    yield {
      name: sheet.name,
      hidden: sheet.state === 'hidden' || sheet.state === 'veryHidden',
      // The streaming reader does not read column visibility.
      hiddenColumns: new Set(),
      rows: () => sheet,
    };
  }
}

async function* loadedSheets(bytes: Uint8Array): AsyncGenerator<SheetLike> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(asBuffer(bytes) as unknown as ArrayBuffer);
  for (const worksheet of workbook.worksheets) {
    const hiddenColumns = new Set<number>();
    for (let c = 1; c <= worksheet.columnCount; c++) {
      if (worksheet.getColumn(c).hidden) hiddenColumns.add(c);
    }
    const rows: RowLike[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row) => rows.push(row as unknown as RowLike));
    yield {
      name: worksheet.name,
      hidden: worksheet.state === 'hidden' || worksheet.state === 'veryHidden',
      hiddenColumns,
      rows: () => rows,
    };
  }
}

/** A table_cell's details while its sheet is read: raw row and column numbers until densified. */
type CellDetails = { -readonly [K in keyof TableCellDetails]: TableCellDetails[K] };

/**
 * What a sheet gives once read: its cells in reading order, as parallel columns of text and
 * details (with dense indices): no draft object per cell, see DraftBlock.cells.
 */
interface SheetCells {
  readonly contents: string[];
  readonly details: CellDetails[];
  readonly rowCount: number;
  readonly columnCount: number;
  /** Formula cells without a result, to calculate: where each is among `contents`. */
  readonly pending: Map<PendingFormula, { readonly at: number; readonly numFmt?: string }>;
}

const ALL_NON_EMPTY = { includeEmpty: false } as const;

/**
 * A cell's details as one literal with exactly its fields (in SPEC.md's order): V8 gives a
 * literal's fields room inside the object, while a field added afterwards costs a separate
 * backing store (about 32 more bytes per cell).
 */
function cellDetails(
  rowIndex: number,
  columnIndex: number,
  cellReference: string | undefined,
  formula: string | undefined,
  formatting: CellFormatting | undefined,
): CellDetails {
  const type = 'table_cell_details';
  if (cellReference === undefined) {
    return formatting
      ? { type, rowIndex, columnIndex, formatting }
      : { type, rowIndex, columnIndex };
  }
  if (formula) {
    return formatting
      ? { type, rowIndex, columnIndex, cellReference, formula, formatting }
      : { type, rowIndex, columnIndex, cellReference, formula };
  }
  return formatting
    ? { type, rowIndex, columnIndex, cellReference, formatting }
    : { type, rowIndex, columnIndex, cellReference };
}

/**
 * Reads a sheet straight into its cells' text and details, built while the row is at hand, so
 * that neither exceljs's rows nor an intermediate copy of the cells are held.
 */
async function readSheet(
  sheet: SheetLike,
  context: FormatContext,
  cellsBefore: number,
  formattingOfCell: (cell: CellLike) => CellFormatting | undefined,
  values: SheetValues | undefined,
  sheetIndex: number,
): Promise<SheetCells> {
  const { skipHidden, rawValues, cellMetadata, cellFormatting } = context.config.excel;
  const contents: string[] = [];
  const details: CellDetails[] = [];
  const pending: SheetCells['pending'] = new Map();
  // Row numbers (in reading order) and columns (as flags) with at least one kept cell.
  const rows: number[] = [];
  const columns: number[] = [];
  let rowNumber = 0;
  let rowKept = false;
  // One callback per sheet, not one closure per row.
  let rowHidden = false;
  const visit = (cell: CellLike, column: number): void => {
    const value = cell.value;
    // Formulas read hidden cells too: every value is kept for them before anything is skipped.
    const scalar = values ? scalarOf(value) : null;
    if (values && scalar !== undefined && scalar !== null) {
      values.values.set(cellKey(rowNumber, column), scalar);
      values.maxRow = Math.max(values.maxRow, rowNumber);
      values.maxColumn = Math.max(values.maxColumn, column);
    }
    if (rowHidden || (skipHidden && sheet.hiddenColumns.has(column))) return;
    const text = cellText(value, cell.numFmt, rawValues);
    const formula = cellMetadata || text === '' ? formulaOf(value) : undefined;
    if (text === '' && formula === undefined) return;
    let cellDetailsOf = cellDetails(
      rowNumber,
      column,
      // exceljs has already built the A1 address of every cell; reusing it saves a string.
      cellMetadata ? cell.address : undefined,
      cellMetadata ? formula : undefined,
      cellFormatting ? formattingOfCell(cell) : undefined,
    );
    if (formula !== undefined && withoutResult(value)) {
      // Say why the cell shows nothing: its formula, and that no result was stored.
      cellDetailsOf = { ...cellDetailsOf, formula, formulaValue: 'missing' };
      if (values) {
        const formulaCell = {
          sheet: sheetIndex,
          row: rowNumber,
          column,
          formula: formula.slice(1),
        };
        values.pending.set(cellKey(rowNumber, column), formulaCell);
        values.maxRow = Math.max(values.maxRow, rowNumber);
        values.maxColumn = Math.max(values.maxColumn, column);
        pending.set(
          formulaCell,
          cell.numFmt === undefined
            ? { at: contents.length }
            : { at: contents.length, numFmt: cell.numFmt },
        );
      }
    }
    contents.push(text);
    details.push(cellDetailsOf);
    columns[column] = 1;
    rowKept = true;
  };
  for await (const row of sheet.rows()) {
    rowHidden = skipHidden && row.hidden;
    if (rowHidden && !values) continue;
    rowNumber = row.number;
    rowKept = false;
    row.eachCell(ALL_NON_EMPTY, visit);
    if (rowKept) rows.push(rowNumber);
    if (contents.length + cellsBefore > context.limits.maxCells) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The workbook has more than ${context.limits.maxCells} non-empty cells (limits.maxCells). Split it or raise the limit.`,
      );
    }
    if ((row.number & 0x3ff) === 0) context.signal.throwIfAborted();
  }
  // Dense indices: rows and columns without any kept cell (hidden, or empty) are left out.
  const usedColumns: number[] = [];
  columns.forEach((_flag, column) => {
    usedColumns.push(column);
  });
  const keptRows = distinctSorted(rows);
  const rowIndex = denseIndex(keptRows);
  const columnIndex = denseIndex(usedColumns);
  for (const cell of details) {
    cell.rowIndex = rowIndex(cell.rowIndex);
    cell.columnIndex = columnIndex(cell.columnIndex);
  }
  return {
    contents,
    details,
    rowCount: keptRows.length,
    columnCount: usedColumns.length,
    pending,
  };
}

/**
 * Fills the formula cells without a result with what calculating them gave: the value shown as
 * a cached one would be (its number format applied), or nothing and the reason.
 */
function fillCalculated(
  read: SheetCells,
  results: ReadonlyMap<PendingFormula, Calculated>,
  raw: boolean,
): void {
  for (const [formulaCell, { at, numFmt }] of read.pending) {
    const result = results.get(formulaCell);
    const details = read.details[at];
    if (!result || !details) continue;
    if (result.ok) {
      read.contents[at] = calculatedText(result.value, numFmt, raw);
      read.details[at] = { ...details, formulaValue: 'calculated' };
    } else {
      read.details[at] = { ...details, formulaError: result.reason };
    }
  }
}

/**
 * The sheet as a markdown table, written a row at a time from the cells: rows arrive in order,
 * so no grid of every row's text is built. Cells out of row order (a malformed sheet) fall back
 * to the grid.
 */
function sheetMarkdown({ contents, details, rowCount, columnCount }: SheetCells): string {
  if (rowCount === 0 || columnCount === 0) return '';
  const lines: string[] = [];
  const line: string[] = new Array<string>(columnCount).fill('');
  let current = 0;
  for (let i = 0; i < details.length; i++) {
    const r = details[i]?.rowIndex ?? 0;
    if (r !== current) {
      if (r !== current + 1) return gridMarkdown(contents, details, rowCount);
      lines.push(markdownTableRow(line, columnCount));
      if (current === 0) lines.push(markdownTableSeparator(columnCount));
      line.fill('');
      current = r;
    }
    line[details[i]?.columnIndex ?? 0] = contents[i] ?? '';
  }
  lines.push(markdownTableRow(line, columnCount));
  if (current === 0) lines.push(markdownTableSeparator(columnCount));
  return lines.join('\n');
}

function gridMarkdown(
  contents: readonly string[],
  details: readonly CellDetails[],
  rowCount: number,
): string {
  const grid: string[][] = Array.from({ length: rowCount }, () => []);
  details.forEach((cell, i) => {
    const row = grid[cell.rowIndex];
    if (row) row[cell.columnIndex] = contents[i] ?? '';
  });
  return markdownTable(grid.map((row) => Array.from(row, (text) => text ?? '')));
}

/**
 * XLSX (EXCEL) through exceljs: one unit (and chunk) per sheet, one table per sheet whose cells
 * are table_cell blocks; displayed values honour number formats unless excelUseRawCellValues;
 * A1 references and formulas with excelIncludeCellMetadata, formatting with
 * excelIncludeCellFormatting; hidden sheets, rows and columns skipped with excelSkipHiddenContent.
 * Large workbooks are streamed; `options.stream` forces either reader (tests compare the two).
 */
export async function parseXlsx(
  bytes: Uint8Array,
  context: FormatContext,
  options: { readonly stream?: boolean } = {},
): Promise<DraftDocument> {
  const units: DraftUnit[] = [];
  const formattingOfCell = sharedFormatting();
  const { calculate, skipHidden, rawValues } = context.config.excel;
  const sheetValues: SheetValues[] = [];
  const reads: { read: SheetCells; sheetIndex: number; name: string }[] = [];
  let cells = 0;
  let index = 0;
  try {
    const stream = options.stream ?? bytes.length > STREAM_ABOVE_BYTES;
    const sheets = stream ? streamSheets(bytes) : loadedSheets(bytes);
    for await (const sheet of sheets) {
      const sheetIndex = index++;
      const values: SheetValues | undefined = calculate
        ? { name: sheet.name, values: new Map(), pending: new Map(), maxRow: 0, maxColumn: 0 }
        : undefined;
      if (values) sheetValues.push(values);
      // A hidden sheet is still read when formulas are calculated: they may refer to it.
      if (skipHidden && sheet.hidden && !values) continue;
      const read = await readSheet(sheet, context, cells, formattingOfCell, values, sheetIndex);
      if (skipHidden && sheet.hidden) continue;
      cells += read.contents.length;
      reads.push({ read, sheetIndex, name: sheet.name });
    }
    if (sheetValues.some((sheet) => sheet.pending.size > 0)) {
      const results = calculateFormulas(sheetValues, context.signal);
      for (const { read } of reads) fillCalculated(read, results, rawValues);
    }
    for (const { read, sheetIndex, name } of reads) {
      const { rowCount, columnCount } = read;
      const sheetMeta = { index: sheetIndex, name };
      const blocks: DraftBlock[] = [
        {
          type: 'text',
          content: name,
          markdown: `## ${name}`,
          details: { type: 'text_details' },
          headingLevel: 2,
        },
      ];
      if (rowCount > 0) {
        const markdown = sheetMarkdown(read);
        blocks.push({
          type: 'table',
          content: markdown,
          markdown,
          details: { type: 'table_details', rowCount, columnCount },
          cells: { contents: read.contents, details: read.details },
        });
      }
      units.push({ pageNumber: sheetIndex + 1, sheet: sheetMeta, blocks });
    }
  } catch (error) {
    if (error instanceof ParseFailure) throw error;
    context.signal.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseFailure(
      'CORRUPT_FILE',
      `The XLSX could not be read (${message}). It may be truncated or not an Excel workbook; re-save it from Excel.`,
      { cause: error },
    );
  }
  return { units, pages: null, pageCount: Math.max(1, units.length) };
}
