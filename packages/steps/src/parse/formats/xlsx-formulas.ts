import { createRequire } from 'node:module';

/** A cell value as formulas read it: Excel's scalar types (dates as serial numbers). */
export type CellScalar = number | string | boolean | FormulaErrorValue | null;

/** An Excel error value (`#DIV/0!`, `#N/A`, …). */
export interface FormulaErrorValue {
  readonly error: string;
}

/** A formula cell without a cached value, to be calculated. */
export interface PendingFormula {
  /** The sheet's position among the workbook's sheets. */
  readonly sheet: number;
  /** 1-based. */
  readonly row: number;
  readonly column: number;
  /** The formula without its leading `=`. */
  readonly formula: string;
}

/** What calculating a formula gave: a value, or why there is none. */
export type Calculated =
  | { readonly ok: true; readonly value: CellScalar }
  | { readonly ok: false; readonly reason: string };

/** The cells of one sheet: values by position, formulas still to calculate, the used extent. */
export interface SheetValues {
  readonly name: string;
  readonly values: Map<number, CellScalar>;
  readonly pending: Map<number, PendingFormula>;
  maxRow: number;
  maxColumn: number;
}

/** Columns per row in a cell key (Excel's maximum). */
const COLUMNS = 16_384;

/** The key of a cell in {@link SheetValues} maps. */
export function cellKey(row: number, column: number): number {
  return row * COLUMNS + column;
}

/** fast-formula-parser's API, the part used here (the package ships no types). */
interface FormulaParserApi {
  parse(formula: string, position: { sheet: string; row: number; col: number }): unknown;
}
interface FormulaParserModule {
  new (config: {
    onCell: (ref: { sheet?: string; row: number; col: number }) => unknown;
    onRange: (ref: {
      sheet?: string;
      from: { row: number; col: number };
      to: { row: number; col: number };
    }) => unknown[][];
  }): FormulaParserApi;
  readonly FormulaError: new (error: string, details?: string) => { readonly _error: string };
}

const require = createRequire(import.meta.url);

/** The result of a formula as a cell value: a range's top-left value, an error by its code. */
function scalar(result: unknown, errorClass: FormulaParserModule['FormulaError']): CellScalar {
  let value = result;
  while (Array.isArray(value)) value = value[0];
  if (value instanceof errorClass) return { error: value._error };
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  return null;
}

/**
 * Calculates the pending formulas of a workbook with fast-formula-parser (Excel's grammar and
 * semantics: empty cells read as 0 or "", errors such as `#DIV/0!` are values, ranges and
 * references to other sheets). A formula reading another pending formula calculates it first;
 * a circular reference, an unknown function or a formula the parser cannot read leaves the
 * cell without a value and gives the reason. Ranges are clipped to each sheet's used extent.
 */
export function calculateFormulas(
  sheets: readonly SheetValues[],
  signal: AbortSignal,
): Map<PendingFormula, Calculated> {
  const FormulaParser = require('fast-formula-parser') as FormulaParserModule;
  const results = new Map<PendingFormula, Calculated>();
  const inProgress = new Set<PendingFormula>();
  const byName = new Map(sheets.map((sheet) => [sheet.name.toLowerCase(), sheet]));
  let current: SheetValues | undefined;
  const sheetOf = (name: string | undefined): SheetValues | undefined =>
    name === undefined ? current : byName.get(name.toLowerCase());

  const valueAt = (sheet: SheetValues, row: number, column: number): CellScalar => {
    const key = cellKey(row, column);
    const pending = sheet.pending.get(key);
    if (!pending) return sheet.values.get(key) ?? null;
    const result = calculate(pending);
    if (!result.ok) throw new FormulaReadError(result.reason);
    return result.value;
  };
  const toParser = (value: CellScalar): unknown =>
    value !== null && typeof value === 'object'
      ? new FormulaParser.FormulaError(value.error)
      : value;

  const parser = new FormulaParser({
    onCell: ({ sheet, row, col }) => {
      const target = sheetOf(sheet);
      return target ? toParser(valueAt(target, row, col)) : null;
    },
    onRange: ({ sheet, from, to }) => {
      const target = sheetOf(sheet);
      if (!target) return [[]];
      const rows: unknown[][] = [];
      for (let r = from.row; r <= Math.min(to.row, target.maxRow); r++) {
        const row: unknown[] = [];
        for (let c = from.col; c <= Math.min(to.col, target.maxColumn); c++) {
          row.push(toParser(valueAt(target, r, c)));
        }
        rows.push(row);
      }
      return rows.length > 0 ? rows : [[]];
    },
  });

  function calculate(pending: PendingFormula): Calculated {
    const known = results.get(pending);
    if (known) return known;
    if (inProgress.has(pending)) return { ok: false, reason: 'circular reference' };
    const sheet = sheets[pending.sheet];
    if (!sheet) return { ok: false, reason: 'unknown sheet' };
    inProgress.add(pending);
    const outer = current;
    current = sheet;
    let result: Calculated;
    try {
      const value = parser.parse(pending.formula, {
        sheet: sheet.name,
        row: pending.row,
        col: pending.column,
      });
      result = { ok: true, value: scalar(value, FormulaParser.FormulaError) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = { ok: false, reason: message };
    } finally {
      current = outer;
      inProgress.delete(pending);
    }
    results.set(pending, result);
    return result;
  }

  let count = 0;
  for (const sheet of sheets) {
    for (const pending of sheet.pending.values()) {
      if ((++count & 0xff) === 0) signal.throwIfAborted();
      calculate(pending);
    }
  }
  return results;
}

/** A referenced formula that could not be calculated: the formula reading it cannot be either. */
class FormulaReadError extends Error {}
