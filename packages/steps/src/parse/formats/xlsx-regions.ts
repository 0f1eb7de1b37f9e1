import type { TableCellDetails } from '../parse-output.ts';

/**
 * A part of a sheet: one cell read as a line of text, a lone row of cells read as a line (its
 * cells `start` to `end`, apart), or rows read as a table.
 */
export type SheetRegion =
  | { readonly kind: 'text'; readonly cell: number }
  | { readonly kind: 'line'; readonly start: number; readonly end: number }
  | {
      readonly kind: 'table';
      /** Cells `start` (inclusive) to `end` (exclusive), in reading order. */
      readonly start: number;
      readonly end: number;
      /** The region's first row (dense index) and its number of rows. */
      readonly firstRow: number;
      readonly rowCount: number;
    };

/** A formula cell keeps its table cell details (formula, `formulaValue`) in a table. */
const hasFormula = (cell: TableCellDetails) =>
  cell.formula !== undefined || cell.formulaValue !== undefined;

/**
 * The regions of a sheet laid out as a document (a letterhead and "Invoice No.: 1" lines above an
 * item table, totals and terms below it, as openpyxl and LibreOffice users write invoices): in
 * each run of rows between blank rows, the rows of a single cell of words before the first row of
 * several cells and after the last one are lines of text, the rows between them a table (a lone
 * row of cells, `Payment terms … Order Amount   CAD 2,539.56`, is a line of text too). Null
 * when the whole sheet is one table: no such rows, only such rows (a one-column list), or cells
 * out of row order. Linear in the cells; `rowNumbers` are the sheet's row numbers of the dense
 * rows.
 */
export function sheetRegions(
  contents: readonly string[],
  details: readonly TableCellDetails[],
  rowNumbers: readonly number[],
  rowCount: number,
): SheetRegion[] | null {
  // Where each dense row's cells start; rows arrive in order (else one table).
  const starts = new Int32Array(rowCount + 1);
  let row = -1;
  for (let i = 0; i < details.length; i++) {
    const r = (details[i] as TableCellDetails).rowIndex;
    if (r < row || r >= rowCount) return null;
    while (row < r) starts[++row] = i;
  }
  if (row !== rowCount - 1) return null;
  starts[rowCount] = details.length;
  // A line of text: one cell of words, not a number or a formula (a total under its column).
  const single = (r: number) =>
    (starts[r + 1] as number) - (starts[r] as number) === 1 &&
    !hasFormula(details[starts[r] as number] as TableCellDetails) &&
    /\p{L}/u.test(contents[starts[r] as number] ?? '');
  let singles = 0;
  for (let r = 0; r < rowCount; r++) if (single(r)) singles++;
  if (singles === 0 || singles === rowCount) return null;

  const regions: SheetRegion[] = [];
  const text = (from: number, to: number) => {
    for (let r = from; r < to; r++) regions.push({ kind: 'text', cell: starts[r] as number });
  };
  let group = 0;
  for (let r = 1; r <= rowCount; r++) {
    const blankBefore = r < rowCount && (rowNumbers[r] ?? 0) - (rowNumbers[r - 1] ?? 0) > 1;
    if (r < rowCount && !blankBefore) continue;
    // Rows group … r-1 are one run between blank rows.
    let lead = group;
    while (lead < r && single(lead)) lead++;
    let trail = r - 1;
    while (trail >= lead && single(trail)) trail--;
    text(group, lead);
    if (lead === trail)
      regions.push({
        kind: 'line',
        start: starts[lead] as number,
        end: starts[lead + 1] as number,
      });
    else if (lead < trail)
      regions.push({
        kind: 'table',
        start: starts[lead] as number,
        end: starts[trail + 1] as number,
        firstRow: lead,
        rowCount: trail - lead + 1,
      });
    text(Math.max(trail + 1, lead), r);
    group = r;
  }
  return regions.some((region) => region.kind === 'text') ? regions : null;
}
