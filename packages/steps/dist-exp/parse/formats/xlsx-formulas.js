import { createRequire } from 'node:module';
/** Columns per row in a cell key (Excel's maximum). */
const COLUMNS = 16_384;
/** The key of a cell in {@link SheetValues} maps. */
export function cellKey(row, column) {
    return row * COLUMNS + column;
}
const require = createRequire(import.meta.url);
/** The result of a formula as a cell value: a range's top-left value, an error by its code. */
function scalar(result, errorClass) {
    let value = result;
    while (Array.isArray(value))
        value = value[0];
    if (value instanceof errorClass)
        return { error: value._error };
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
export function calculateFormulas(sheets, signal) {
    const FormulaParser = require('fast-formula-parser');
    const results = new Map();
    const inProgress = new Set();
    const byName = new Map(sheets.map((sheet) => [sheet.name.toLowerCase(), sheet]));
    let current;
    const sheetOf = (name) => name === undefined ? current : byName.get(name.toLowerCase());
    const valueAt = (sheet, row, column) => {
        const key = cellKey(row, column);
        const pending = sheet.pending.get(key);
        if (!pending)
            return sheet.values.get(key) ?? null;
        const result = calculate(pending);
        if (!result.ok)
            throw new FormulaReadError(result.reason);
        return result.value;
    };
    const toParser = (value) => value !== null && typeof value === 'object'
        ? new FormulaParser.FormulaError(value.error)
        : value;
    const parser = new FormulaParser({
        onCell: ({ sheet, row, col }) => {
            const target = sheetOf(sheet);
            return target ? toParser(valueAt(target, row, col)) : null;
        },
        onRange: ({ sheet, from, to }) => {
            const target = sheetOf(sheet);
            if (!target)
                return [[]];
            const rows = [];
            for (let r = from.row; r <= Math.min(to.row, target.maxRow); r++) {
                const row = [];
                for (let c = from.col; c <= Math.min(to.col, target.maxColumn); c++) {
                    row.push(toParser(valueAt(target, r, c)));
                }
                rows.push(row);
            }
            return rows.length > 0 ? rows : [[]];
        },
    });
    function calculate(pending) {
        const known = results.get(pending);
        if (known)
            return known;
        if (inProgress.has(pending))
            return { ok: false, reason: 'circular reference' };
        const sheet = sheets[pending.sheet];
        if (!sheet)
            return { ok: false, reason: 'unknown sheet' };
        inProgress.add(pending);
        const outer = current;
        current = sheet;
        let result;
        try {
            const value = parser.parse(pending.formula, {
                sheet: sheet.name,
                row: pending.row,
                col: pending.column,
            });
            result = { ok: true, value: scalar(value, FormulaParser.FormulaError) };
        }
        catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            result = { ok: false, reason: message };
        }
        finally {
            current = outer;
            inProgress.delete(pending);
        }
        results.set(pending, result);
        return result;
    }
    let count = 0;
    for (const sheet of sheets) {
        for (const pending of sheet.pending.values()) {
            if ((++count & 0xff) === 0)
                signal.throwIfAborted();
            calculate(pending);
        }
    }
    return results;
}
/** A referenced formula that could not be calculated: the formula reading it cannot be either. */
class FormulaReadError extends Error {
}
//# sourceMappingURL=xlsx-formulas.js.map