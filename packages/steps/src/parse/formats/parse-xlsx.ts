import { compileNumberFormat } from '@docflow/formulas';
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
import {
  columnLetters,
  readWorkbook,
  type XlsxCell,
  type XlsxSheet,
  type XlsxStyle,
  type XlsxValue,
} from './xlsx-reader.ts';
import { type SheetRegion, sheetRegions } from './xlsx-regions.ts';

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

/** Excel's serial date epoch: a date's serial number is its day count from it. */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** A cell value as formulas read it (see {@link CellScalar}); `undefined` for a formula without a result. */
function scalarOf(cell: XlsxCell): CellScalar | undefined {
  if (cell.value === null) return cell.formula === undefined ? null : undefined;
  return cell.value;
}

/** The text a value shows under a style: its number format applied, or raw. */
function valueText(value: XlsxValue, style: XlsxStyle, raw: boolean): string {
  if (value === null) return '';
  if (typeof value === 'object') return value.error;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (style.date) {
    // Raw dates read as ISO timestamps, as a date value would be written out.
    return raw
      ? new Date(Math.round(EXCEL_EPOCH + value * 86_400_000)).toISOString()
      : compileNumberFormat(style.numFmt)(value);
  }
  return raw ? String(value) : compileNumberFormat(style.numFmt)(value);
}

/** The text a calculated value shows, as a cached one would. */
function calculatedText(value: CellScalar, style: XlsxStyle, raw: boolean): string {
  if (value === null) return '';
  return valueText(value, style, raw);
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
  /** The sheet's row number of each dense row (blank rows between them separate regions). */
  readonly rowNumbers: readonly number[];
  /** Formula cells without a result, to calculate: where each is among `contents`. */
  readonly pending: Map<PendingFormula, { readonly at: number; readonly style: XlsxStyle }>;
}

/**
 * A cell's details as one literal with exactly its fields (in the interface's order): V8 gives a
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
 * that neither the reader's rows nor an intermediate copy of the cells are held.
 */
async function readSheet(
  sheet: XlsxSheet,
  context: FormatContext,
  cellsBefore: number,
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
  const visit = (cell: XlsxCell): void => {
    const { column, value, style } = cell;
    // Formulas read hidden cells too: every value is kept for them before anything is skipped.
    const scalar = values ? scalarOf(cell) : null;
    if (values && scalar !== undefined && scalar !== null) {
      values.values.set(cellKey(rowNumber, column), scalar);
      values.maxRow = Math.max(values.maxRow, rowNumber);
      values.maxColumn = Math.max(values.maxColumn, column);
    }
    if (rowHidden || (skipHidden && sheet.hiddenColumns.has(column))) return;
    const text = valueText(value, style, rawValues);
    const formula =
      (cellMetadata || text === '') && cell.formula !== undefined ? `=${cell.formula}` : undefined;
    if (text === '' && formula === undefined) return;
    let cellDetailsOf = cellDetails(
      rowNumber,
      column,
      cellMetadata ? `${columnLetters(column)}${rowNumber}` : undefined,
      cellMetadata ? formula : undefined,
      cellFormatting ? style.formatting : undefined,
    );
    if (formula !== undefined && value === null) {
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
        pending.set(formulaCell, { at: contents.length, style });
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
    for (const cell of row.cells) visit(cell);
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
    rowNumbers: keptRows,
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
  for (const [formulaCell, { at, style }] of read.pending) {
    const result = results.get(formulaCell);
    const details = read.details[at];
    if (!result || !details) continue;
    if (result.ok) {
      read.contents[at] = calculatedText(result.value, style, raw);
      read.details[at] = { ...details, formulaValue: 'calculated' };
    } else {
      read.details[at] = { ...details, formulaError: result.reason };
    }
  }
}

/** A table's cells: a whole sheet's, or a region's (see regionCells). */
type TableCells = Pick<SheetCells, 'contents' | 'details' | 'rowCount' | 'columnCount'>;

/**
 * The sheet as a markdown table, written a row at a time from the cells: rows arrive in order,
 * so no grid of every row's text is built. Cells out of row order (a malformed sheet) fall back
 * to the grid.
 */
function sheetMarkdown({ contents, details, rowCount, columnCount }: TableCells): string {
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

/** What separates the cells of a lone row read as a line. */
const CELL_GAP = '    ';

function tableBlock(cells: TableCells): DraftBlock {
  const markdown = sheetMarkdown(cells);
  return {
    type: 'table',
    content: markdown,
    markdown,
    details: { type: 'table_details', rowCount: cells.rowCount, columnCount: cells.columnCount },
    cells: { contents: cells.contents, details: cells.details },
  };
}

/** A table region's cells, with row and column indices of its own (its used columns, dense). */
function regionCells(
  read: SheetCells,
  region: Extract<SheetRegion, { kind: 'table' }>,
): TableCells {
  const details = read.details.slice(region.start, region.end);
  const used: number[] = [];
  for (const cell of details) used[cell.columnIndex] = 1;
  const columns: number[] = [];
  used.forEach((_flag, column) => {
    columns.push(column);
  });
  const columnIndex = denseIndex(columns);
  for (const cell of details) {
    cell.rowIndex -= region.firstRow;
    cell.columnIndex = columnIndex(cell.columnIndex);
  }
  return {
    contents: read.contents.slice(region.start, region.end),
    details,
    rowCount: region.rowCount,
    columnCount: columns.length,
  };
}

/**
 * A sheet's blocks: one table, or, for a sheet laid out as a document (see sheetRegions), its
 * lines of text and tables in reading order.
 */
function sheetBlocks(read: SheetCells): DraftBlock[] {
  const regions = sheetRegions(read.contents, read.details, read.rowNumbers, read.rowCount);
  if (!regions) return [tableBlock(read)];
  return regions.map((region) => {
    if (region.kind === 'table') return tableBlock(regionCells(read, region));
    // A lone row's cells keep a gap between them, as a PDF line's pieces do.
    const text =
      region.kind === 'line'
        ? read.contents.slice(region.start, region.end).join(CELL_GAP)
        : (read.contents[region.cell] ?? '');
    const reference =
      read.details[region.kind === 'line' ? region.start : region.cell]?.cellReference;
    return {
      type: 'text',
      content: text,
      markdown: text,
      details:
        reference === undefined
          ? { type: 'text_details' }
          : { type: 'text_details', cellReference: reference },
    };
  });
}

/**
 * XLSX (EXCEL), read as it streams (xlsx-reader.ts): one unit (and chunk) per sheet, one table per sheet whose cells
 * are table_cell blocks (a sheet laid out as a document: its lines of text around the table as
 * text blocks, see sheetRegions); displayed values honour number formats unless excelUseRawCellValues;
 * A1 references and formulas with excelIncludeCellMetadata, formatting with
 * excelIncludeCellFormatting; hidden sheets, rows and columns skipped with excelSkipHiddenContent.
 */
export async function parseXlsx(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  const units: DraftUnit[] = [];
  const { calculate, skipHidden, rawValues } = context.config.excel;
  const sheetValues: SheetValues[] = [];
  const reads: { read: SheetCells; sheetIndex: number; name: string }[] = [];
  let cells = 0;
  let grid = 0;
  let index = 0;
  try {
    for (const sheet of readWorkbook(bytes)) {
      const sheetIndex = index++;
      const values: SheetValues | undefined = calculate
        ? { name: sheet.name, values: new Map(), pending: new Map(), maxRow: 0, maxColumn: 0 }
        : undefined;
      if (values) sheetValues.push(values);
      // A hidden sheet is still read when formulas are calculated: they may refer to it.
      if (skipHidden && sheet.hidden && !values) continue;
      const read = await readSheet(sheet, context, cells, values, sheetIndex);
      if (skipHidden && sheet.hidden) continue;
      cells += read.contents.length;
      // A sheet's table spans its used rows × used columns: a few cells on a diagonal would
      // otherwise pad out to millions in the markdown.
      grid += read.rowCount * read.columnCount;
      if (grid > context.limits.maxCells) {
        throw new ParseFailure(
          'FILE_SIZE_TOO_LARGE',
          `The workbook's sheets span more than ${context.limits.maxCells} cells (used rows × used columns, limits.maxCells): their non-empty cells lie far apart. Split it or raise the limit.`,
        );
      }
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
      if (rowCount > 0 && columnCount > 0) blocks.push(...sheetBlocks(read));
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
