import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { DraftBlock, DraftDocument, DraftUnit } from '../draft-document.ts';
import type { FormatContext } from '../parse-document.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { CellFormatting, TableCellDetails } from '../parse-output.ts';
import { markdownTable } from './markdown-table.ts';
import { formatCellValue, formatGeneral } from './number-format.ts';

/** Above this size workbooks are read with exceljs's streaming reader. */
const STREAM_ABOVE_BYTES = 2 * 1024 * 1024;

interface CellLike {
  readonly value: unknown;
  readonly numFmt?: string;
  readonly font?: { bold?: boolean; italic?: boolean; color?: { argb?: string } };
  readonly fill?: { type?: string; pattern?: string; fgColor?: { argb?: string } };
  readonly address: string;
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

function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function denseIndex(values: readonly number[]): Map<number, number> {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  return new Map(sorted.map((value, index) => [value, index]));
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

/** The displayed (or raw) text of a cell. */
function cellText(cell: CellLike, raw: boolean): string {
  let value = cell.value;
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
      return typeof record.text === 'string'
        ? record.text
        : cellText({ ...cell, value: record.text }, raw);
  }
  if (value === null || value === undefined) return '';
  if (value && typeof value === 'object' && 'error' in value)
    return String((value as { error: unknown }).error);
  if (typeof value === 'number') return raw ? String(value) : formatCellValue(value, cell.numFmt);
  if (value instanceof Date)
    return raw ? value.toISOString() : formatCellValue(value, cell.numFmt ?? 'yyyy-mm-dd');
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

async function* streamSheets(bytes: Uint8Array): AsyncGenerator<SheetLike> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
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
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
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

/**
 * XLSX (EXCEL) through exceljs: one unit (and chunk) per sheet, one table per sheet whose cells
 * are table_cell blocks; displayed values honour number formats unless excelUseRawCellValues;
 * A1 references and formulas with excelIncludeCellMetadata, formatting with
 * excelIncludeCellFormatting; hidden sheets, rows and columns skipped with excelSkipHiddenContent.
 * Large workbooks are streamed.
 */
export async function parseXlsx(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  const excel = context.config.excel;
  const units: DraftUnit[] = [];
  let cells = 0;
  let index = 0;
  try {
    const sheets = bytes.length > STREAM_ABOVE_BYTES ? streamSheets(bytes) : loadedSheets(bytes);
    for await (const sheet of sheets) {
      const sheetIndex = index++;
      if (excel.skipHidden && sheet.hidden) continue;
      const grid: string[][] = [];
      const children: DraftBlock[] = [];
      // Only what the output needs is kept: holding exceljs cells would retain every row.
      const pending: {
        row: number;
        column: number;
        text: string;
        formula: string | undefined;
        formatting: CellFormatting | undefined;
      }[] = [];
      for await (const row of sheet.rows()) {
        if (excel.skipHidden && row.hidden) continue;
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          if (excel.skipHidden && sheet.hiddenColumns.has(column)) return;
          const text = cellText(cell, excel.rawValues);
          const formula = excel.cellMetadata || text === '' ? formulaOf(cell.value) : undefined;
          if (text === '' && formula === undefined) return;
          const formatting = excel.cellFormatting ? formattingOf(cell) : undefined;
          pending.push({ row: row.number, column, text, formula, formatting });
        });
        if (pending.length + cells > context.limits.maxCells) {
          throw new ParseFailure(
            'FILE_SIZE_TOO_LARGE',
            `The workbook has more than ${context.limits.maxCells} non-empty cells (limits.maxCells). Split it or raise the limit.`,
          );
        }
        if ((row.number & 0x3ff) === 0) context.signal.throwIfAborted();
      }
      cells += pending.length;
      // Dense indices: rows and columns without any kept cell (hidden, or empty) are left out.
      const rowIndex = denseIndex(pending.map((entry) => entry.row));
      const columnIndex = denseIndex(pending.map((entry) => entry.column));
      for (const entry of pending) {
        const r = rowIndex.get(entry.row) ?? 0;
        const c = columnIndex.get(entry.column) ?? 0;
        const gridRow = grid[r] ?? [];
        gridRow[c] = entry.text;
        grid[r] = gridRow;
        const details: {
          -readonly [K in keyof TableCellDetails]: TableCellDetails[K];
        } = { type: 'table_cell_details', rowIndex: r, columnIndex: c };
        if (excel.cellMetadata) {
          details.cellReference = `${columnName(entry.column)}${entry.row}`;
          if (entry.formula) details.formula = entry.formula;
        }
        if (entry.formatting) details.formatting = entry.formatting;
        children.push({ type: 'table_cell', content: entry.text, markdown: '', details });
      }
      const rowCount = grid.length;
      for (let r = 0; r < rowCount; r++) grid[r] = Array.from(grid[r] ?? [], (v) => v ?? '');
      const columnCount = columnIndex.size;
      const markdown = markdownTable(grid);
      const sheetMeta = { index: sheetIndex, name: sheet.name };
      const blocks: DraftBlock[] = [
        {
          type: 'text',
          content: sheet.name,
          markdown: `## ${sheet.name}`,
          details: { type: 'text_details' },
          headingLevel: 2,
        },
      ];
      if (rowCount > 0) {
        blocks.push({
          type: 'table',
          content: markdown,
          markdown,
          details: { type: 'table_details', rowCount, columnCount },
          children,
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
