/**
 * Label/value detection on a page's lines, wherever a layout puts the value:
 * - on the label's line after a colon ("Invoice #: 1", cut before inner labels a layout parser
 *   joined onto one line: "Invoice #: 1 Date: 2");
 * - in the next cell of the same row ("Invoice Number    INV-1", a right-aligned column, a
 *   letterhead line that also carries a label and its value);
 * - under the label ("Bill to" over the customer's name; a row of labels over a row of values).
 * A row made only of label-like cells, over a row whose cells line up with them, is a header: its
 * labels take the values below, not their neighbours.
 */

import { parseCurrencyCode, parseDate } from '../value-coercion.ts';
import { isAmount, isLabelCell, numeric, TRAILING_AMOUNT } from './cell-shapes.ts';
import type { DocumentCell, DocumentField, DocumentLine, DocumentTable } from './document-view.ts';
import { splitCells } from './table-inference.ts';
import { boxOf, linePolygon, regionOf } from './view-geometry.ts';

const INNER_LABEL = / (?=[A-Z][A-Za-z.#/&'-]*(?: [a-z#][A-Za-z.#/&'-]*){0,3}: )/g;

const LABEL_SHAPE = /^[\p{L}][\p{L}\p{N} .#/&()'%-]{0,48}$/u;

interface Pair {
  readonly label: string;
  readonly value: string;
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** "Label: value" pairs of a line, one per cell (and per inner label in a cell). */
function colonPairs(text: string): Pair[] {
  const pairs: Pair[] = [];
  // A layout parser may join "Invoice #: 1    Date: 2" with one space: cut before inner labels.
  const pieces = splitCells(text).flatMap((cell) => {
    const out: { text: string; start: number; end: number }[] = [];
    let from = 0;
    for (const m of cell.text.matchAll(INNER_LABEL)) {
      if (m.index <= from || !cell.text.slice(0, m.index).includes(':')) continue;
      out.push({
        text: cell.text.slice(from, m.index),
        start: cell.start + from,
        end: cell.start + m.index,
      });
      from = m.index + 1;
    }
    out.push({ text: cell.text.slice(from), start: cell.start + from, end: cell.end });
    return out;
  });
  for (const cell of pieces) {
    const colon = cell.text.indexOf(':');
    if (colon <= 0) continue;
    const label = cell.text.slice(0, colon).trim();
    if (!LABEL_SHAPE.test(label)) continue;
    const rest = cell.text.slice(colon + 1);
    const value = rest.trim();
    const valueStart = cell.start + colon + 1 + (rest.length - rest.trimStart().length);
    pairs.push({ label, value, valueStart, valueEnd: valueStart + value.length });
  }
  return pairs;
}

/** A label that dates what it names: "Opening balance on 1 March 2024", "Balance as at 31/03". */
const DATED = /^(\p{L}[^\d:]*?)\s+(?:on|at|as\s+(?:at|of)|per)\s+(\S.*)$/u;

/** A legal form alone ("Ltd.", "Pvt. Ltd.", "GmbH"): the end of a name wrapped before it. */
const LEGAL_TAIL =
  /^(?:(?:pvt|pty|private|public)\.?\s+)?(?:ltd|limited|inc|llc|llp|plc|gmbh|ag|s\.?a\.?|b\.?v\.?|n\.?v\.?|corp|co|kg|srl|sarl|s\.?p\.?a\.?|oy|ab)\.?$/i;

/** The first and last dates of a page's dated rows (ISO), when it has any. */
export interface DateSpan {
  readonly first: string;
  readonly last: string;
}

/**
 * A label without the date it names its value at ("Closing balance on 31 March 2024" →
 * "Closing balance"), when it has one; else the text as it is. A balance the label names by its
 * date alone ("Balance on 1 March 2024") is the opening balance when that date is on or before
 * the page's first dated row, the closing one when it is on or after the last (`span`).
 */
export function undated(text: string, span?: DateSpan): string {
  const m = DATED.exec(text.trim());
  const date = m?.[2] ? parseDate(m[2]) : undefined;
  if (!m?.[1] || date === undefined) return text;
  if (span && /^balance$/i.test(m[1].trim())) {
    if (date <= span.first) return 'Opening balance';
    if (date >= span.last) return 'Closing balance';
  }
  return m[1];
}

/** The dates the rows of a page begin with (a statement's transactions), first and last. */
function dateSpan(rows: readonly (readonly { readonly text: string }[])[]): DateSpan | undefined {
  const dates = rows
    .filter((r) => r.length >= 2 && (r[0]?.text.length ?? 99) <= 20)
    .flatMap((r) => parseDate(r[0]?.text ?? '') ?? [])
    .sort();
  const [first] = dates;
  const last = dates[dates.length - 1];
  return first && last ? { first, last } : undefined;
}

/**
 * A label and an amount in one cell, set apart by a single space ("Opening Balance USD 3,472.51"):
 * the label must read as one, the amount have cents or a currency.
 */
export function labelledAmount(
  text: string,
  span?: DateSpan,
): { label: string; value: string; at: number } | undefined {
  const m = TRAILING_AMOUNT.exec(text);
  if (!m?.[1]) return undefined;
  const written = text.slice(0, m.index).trim();
  const label = undated(written, span);
  if (label === '' || /\d$/.test(label) || !isLabelCell(label)) return undefined;
  // A currency before its amount ("CHF 3'494.00") is part of the value, not a label.
  if (/^\p{Sc}$/u.test(label) || parseCurrencyCode(label) === label) return undefined;
  // Three capitals that name no currency end the label ("Total excl. VAT 1,000.00").
  const code = /^([A-Z]{3})\s/.exec(m[1]);
  if (code?.[1] && parseCurrencyCode(code[1]) !== code[1]) {
    const at = m.index + 1 + code[0].length;
    return { label: text.slice(0, at).trim(), value: text.slice(at).trim(), at };
  }
  return { label, value: m[1], at: m.index + 1 };
}

/** Last words of a label that a value follows after one space ("Account Number 3384403"). */
const LABEL_END_WORD =
  /^(?:no\.?|nr\.?|nbr\.?|number|num\.?|#|id|ref\.?|reference|code|date|period|iban|bic|swift|account|acct\.?|po|p\.o\.|order|invoice|receipt)$/i;
/** Last words of a label whose value is a date ("Due by 13 April 2024", "Issued on …"). */
const DATE_LABEL_END = /^(?:by|on|due|dated|issued|until|from|statement)$/i;

/**
 * A label and its value in one cell, one space apart, where the label ends with a word that
 * asks for a value ("Account Number 338440312477", "Sort Code 42-32-80", "Invoice # 416055",
 * "For the period 1 August 2023 - 31 August 2023", "Due by 13 April 2024"): the value is a
 * date, or starts with a word that carries a digit.
 */
export function labelledValue(
  text: string,
): { label: string; value: string; at: number } | undefined {
  const words = [...text.matchAll(/\S+/g)];
  for (let k = 1; k < Math.min(words.length, 7); k++) {
    const last = words[k - 1]?.[0] ?? '';
    const byWord = LABEL_END_WORD.test(last);
    if (!byWord && !DATE_LABEL_END.test(last)) continue;
    const at = words[k]?.index ?? text.length;
    const label = text.slice(0, at).trim();
    const value = text.slice(at).trim();
    if (!isLabelCell(label) || value === '') continue;
    const date =
      parseDate(value) !== undefined ||
      (/^\d{1,4}[-/. ]\p{L}*/u.test(value) && /\d{4}/.test(value));
    if (date || (byWord && /\d/.test(words[k]?.[0] ?? ''))) return { label, value, at };
  }
  return undefined;
}

/** A cell of a line with its horizontal extent and its line's vertical one. */
interface Cell {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly x0: number;
  readonly x1: number;
  readonly top: number;
  readonly bottom: number;
  readonly line: number;
}

/**
 * The cells of each line, placed: by their polygons when the lines have geometry, else by
 * character columns (monospaced or layout text), one unit of height per line.
 */
function placeCells(lines: readonly DocumentLine[]): Cell[][] {
  return lines.map((line, index) => {
    const lineBox = line.layout ? null : boxOf(line.polygon);
    return splitCells(line.text).map((c) => {
      const box = lineBox ? boxOf(linePolygon(line, c.start, c.end)) : null;
      return {
        text: c.text,
        start: c.start,
        end: c.end,
        x0: box ? box.left : (line.column ?? 0) + c.start,
        x1: box ? box.right : (line.column ?? 0) + c.end,
        top: lineBox ? lineBox.top : index,
        bottom: lineBox ? lineBox.bottom : index + 0.8,
        line: index,
      };
    });
  });
}

function overlap(a: Cell, b: Cell): number {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
}

/** The cell of the next line down (close enough) that sits under `cell`, if any. */
function cellBelow(
  cell: Cell,
  rows: readonly Cell[][],
  pitch: number,
  slack: number,
): Cell | undefined {
  for (let n = cell.line + 1; n < rows.length; n++) {
    const row = rows[n] ?? [];
    const first = row[0];
    if (!first) continue;
    if (first.top - cell.bottom > pitch * 1.6) return undefined;
    if (first.top < cell.bottom - pitch * 0.3) continue; // same band (a taller neighbour)
    // Left edges together, right edges together (right-aligned columns), or overlapping.
    let best: Cell | undefined;
    let score = 0;
    for (const c of row) {
      const aligned =
        Math.abs(c.x0 - cell.x0) <= slack || Math.abs(c.x1 - cell.x1) <= slack ? 1 : 0;
      const s = aligned + Math.max(0, overlap(cell, c)) / Math.max(1, cell.x1 - cell.x0);
      if (s > score) [best, score] = [c, s];
    }
    return score > 0.2 ? best : undefined;
  }
  return undefined;
}

/** The median height of a line (the pitch unit for "next line down"). */
function linePitch(rows: readonly Cell[][]): number {
  const heights = rows
    .map((r) => r[0])
    .filter((c): c is Cell => c !== undefined)
    .map((c) => c.bottom - c.top)
    .filter((h) => h > 0)
    .sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 1;
}

/** How many rows right under a row of cells line up with it (each the next line down). */
function alignedRowsBelow(
  row: readonly Cell[],
  rows: readonly Cell[][],
  pitch: number,
  slack: number,
): number {
  let count = 0;
  let current = row;
  while (count < 2) {
    const under = current.map((c) => cellBelow(c, rows, pitch, slack));
    const found = under.filter((c): c is Cell => c !== undefined);
    if (found.length < Math.max(2, row.length - 1)) return count;
    const line = found[0]?.line ?? -1;
    if (!found.every((c) => c.line === line)) return count;
    count++;
    // Follow the row below, placed where the header's cells are.
    current = row.map((c, i) => ({ ...(under[i] ?? c), x0: c.x0, x1: c.x1 }));
  }
  return count;
}

/** A cell holding an amount with cents ("7.88", "£1,654.04"), not a code or a date. */
const amountCell = (text: string) => numeric(text) && /\d[.,]\d{2}(?!\d)/.test(text);

/** True when the cell before `cell` on its row is a label (the cell is that label's value). */
function labelledOnItsRow(cell: Cell, rows: readonly Cell[][]): boolean {
  const row = rows[cell.line] ?? [];
  const before = row[row.indexOf(cell) - 1];
  return before !== undefined && isLabelCell(before.text.replace(/:$/, ''));
}

/** Column names of a list of items: what the item is, and a count, a price or an amount. */
const ITEM_WHAT =
  /\b(description|item|items|product|products|service|services|article|particulars|goods|details)\b/i;
const ITEM_FIGURE = /\b(qty|quantity|price|rate|unit|units|amount|total|hours|pcs|cost)\b/i;

/**
 * True for the header of an items table ("Description    Qty    Price    Amount"), even over a
 * single row: its labels name columns, they do not label the values under them.
 */
function itemHeader(row: readonly Cell[]): boolean {
  if (row.length < 3) return false;
  const what = row.findIndex((c) => ITEM_WHAT.test(c.text));
  return what >= 0 && row.some((c, i) => i !== what && ITEM_FIGURE.test(c.text));
}

/**
 * True for a row of labels each beside its value: labels that end as labels do ("Required
 * Date", "Acct #", "Ship via:"), at least one value no label-shaped text. A name in the first
 * column ("Sofia Nakamura    80654990") makes no such row.
 */
function labelValueRow(row: readonly Cell[]): boolean {
  if (row.length < 2 || row.length % 2 !== 0) return false;
  const label = (c: Cell) => isLabelCell(c.text.replace(/:$/, ''));
  return (
    row.every((c, i) => i % 2 === 1 || (label(c) && endsAsLabel(c.text))) &&
    row.some((c, i) => i % 2 === 1 && !label(c))
  );
}

/**
 * True for a row of label-shaped cells that can be a row of labels over values. A cell ending
 * with a colon followed by one without ("Customer Name:    John Smith") is a label and its value,
 * whatever shape the value has.
 */
const allLabels = (row: readonly Cell[]) =>
  row.length >= 2 &&
  row.every((c) => isLabelCell(c.text.replace(/:$/, ''))) &&
  !row.some((c, i) => /:$/.test(c.text) && !/:$/.test(row[i + 1]?.text ?? ':'));

/**
 * The fields of a page's lines, and the lines that are a row of labels over a row of values
 * (`headers`, by index).
 */
export function lineFields(lines: readonly DocumentLine[]): {
  fields: DocumentField[];
  headers: ReadonlySet<number>;
} {
  const fields: DocumentField[] = [];
  const rows = placeCells(lines);
  const span = dateSpan(rows);
  const pitch = linePitch(rows);
  const chars = rows.flat().map((c) => (c.x1 - c.x0) / Math.max(1, c.text.length));
  const charWidth = chars.sort((a, b) => a - b)[Math.floor(chars.length / 2)] ?? 1;
  const slack = 2 * charWidth;
  const push = (
    label: string,
    line: number,
    value: Cell | { line: number; start: number; end: number; text: string },
    source: DocumentField['source'],
  ) => {
    const at = lines[value.line] as DocumentLine;
    fields.push({
      label,
      value: value.text,
      source,
      region: regionOf(at, linePolygon(at, value.start, value.end)),
      lineIndex: line,
    });
  };
  // Pass 1: values on the label's own line (after a colon, or in the next cell).
  const paired = new Set<Cell>();
  /** Cells that label a value on their own line: never a value of a label above. */
  const labels = new Set<Cell>();
  const headers = new Set<number>();
  const colons = lines.map((line) => colonPairs(line.text));
  lines.forEach((line, index) => {
    // A table block's rows bring their own fields.
    if (line.block) {
      for (const cell of rows[index] ?? []) paired.add(cell);
      for (const cell of rows[index] ?? []) labels.add(cell);
      return;
    }
    const row = rows[index] ?? [];
    for (const pair of colons[index] ?? []) {
      if (pair.value === '') continue;
      // A name wrapped before its legal form ("Supplier: Larkspur Analytics" over "Ltd."): the
      // form under the value's cell is the end of the value.
      const cell = row.find((c) => c.start <= pair.valueStart && pair.valueStart < c.end);
      const tail = cell && cellBelow(cell, rows, pitch, slack);
      const wrapped = tail && LEGAL_TAIL.test(tail.text) ? tail : undefined;
      if (wrapped) {
        labels.add(wrapped);
        paired.add(wrapped);
      }
      push(
        pair.label,
        index,
        {
          line: index,
          start: pair.valueStart,
          end: pair.valueEnd,
          text: wrapped ? `${pair.value} ${wrapped.text}` : pair.value,
        },
        'line',
      );
    }
    for (const cell of row) if (/^[^:]+:\s*\S/.test(cell.text)) labels.add(cell);
    // Cells that are a label and its value one space apart: an amount on a line of its own (or
    // of a few cells: "Terms: Net 30    Total 1,200.00"), an identifier or a date after a label
    // that asks for one ("Account Number 338440312477").
    for (const [k, cell] of row.entries()) {
      if (cell.text.includes(':')) continue;
      // "Closing balance on 31 March 2024    1,300.00": a dated label whose value is the amount
      // in the next cell, not the date.
      const after = row[k + 1];
      if (after && isAmount(after.text) && undated(cell.text) !== cell.text) continue;
      const pair =
        (row.length <= 3 ? labelledAmount(cell.text, span) : undefined) ?? labelledValue(cell.text);
      if (!pair) continue;
      const start = cell.start + pair.at;
      push(pair.label, index, { line: index, start, end: cell.end, text: pair.value }, 'line');
      paired.add(cell);
      labels.add(cell);
    }
    if (row.length === 1 && paired.has(row[0] as Cell)) return;
    if (allLabels(row)) {
      // A header set on two lines ("Line" / "Total" over a narrow column) counts as one row.
      const next = rows[index + 1] ?? [];
      const wrapped =
        next.length > 0 &&
        next.length < row.length &&
        next.every((c) => isLabelCell(c.text) && row.some((h) => overlap(h, c) > 0));
      const base = wrapped
        ? row.map((c) => ({
            ...c,
            line: index + 1,
            top: next[0]?.top ?? c.top,
            bottom: next[0]?.bottom ?? c.bottom,
          }))
        : row;
      const below = alignedRowsBelow(base, rows, pitch, slack);
      // A row of labels over one row of values pairs vertically; over more rows of figures it is
      // a table's header, whose labels name columns; over rows of words (parallel blocks such as
      // "Bill to" and "Ship to") each label takes the first line under it.
      // A table's column holds figures row after row; a label's value is one figure among words.
      const first = index + (wrapped ? 2 : 1);
      const a = rows[first] ?? [];
      const b = rows[first + 1] ?? [];
      const table =
        itemHeader(row) ||
        (below > 1 &&
          a.some((c) => numeric(c.text) && b.some((d) => numeric(d.text) && overlap(c, d) > 0)));
      if (table) {
        for (const cell of [...row, ...(wrapped ? next : [])]) paired.add(cell);
        return;
      }
      // A row of labels over a label and its value ("Vendor    Acme Tools Ltd" over "Required
      // Date    2024-04-20") is a label and its value too, whose value reads as a label.
      if (below >= 1 && !labelValueRow(a)) {
        headers.add(index);
        return;
      }
    }
    // Same row: a label cell and the cell after it, unless that cell is the label of the next pair.
    // The cells of a row right under a row of labels are that row's values.
    if (headers.has(index - 1)) return;
    for (let i = 0; i + 1 < row.length; i++) {
      const label = row[i] as Cell;
      const value = row[i + 1] as Cell;
      if (paired.has(label) || paired.has(value)) continue;
      // "Invoice No.:    A-20931": a label's colon does not keep its value from the next cell.
      const colon = /^[^:]+:$/.test(label.text);
      const named = undated(label.text.replace(/:$/, ''), span);
      if ((label.text.includes(':') && !colon) || !isLabelCell(named)) continue;
      if (value.text.includes(':') && !/^\d{1,2}:\d{2}/.test(value.text)) continue;
      const next = row[i + 2];
      if (!colon && isLabelCell(value.text) && next && !isLabelCell(next.text)) continue;
      push(named, index, value, 'row');
      paired.add(label).add(value);
      labels.add(label);
      i++;
    }
  });
  // Pass 2: values under their labels ("Bill to", a header row's labels, "Due date:").
  lines.forEach((_, index) => {
    const row = rows[index] ?? [];
    const header = headers.has(index);
    for (const cell of row) {
      if (paired.has(cell)) continue;
      const colonEmpty = /:$/.test(cell.text) && !cell.text.slice(0, -1).includes(':');
      const label = cell.text.replace(/:$/, '').trim();
      // A label shares its row with other cells only as a header, or beside text that is no
      // label (an address line in the next column: "77 Harbor Road    For the period").
      const besideText =
        !headers.has(index - 1) &&
        row.every((c) => c === cell || !isLabelCell(c.text.replace(/:$/, '')));
      if (!colonEmpty && row.length > 1 && !header && !besideText) continue;
      if (!isLabelCell(label)) continue;
      const below = cellBelow(cell, rows, pitch, slack);
      // The cells of a row of labels over values are labels, never the value of a lone label
      // above ("INVOICE" over "Invoice Number    Invoice Date"); a row of labels over another
      // ("Vendor    Ship To" over two names that read as labels too) takes its values.
      if (below && !header && headers.has(below.line)) continue;
      // A figure with more figures under it is the top of a column ("Total" over the amounts of
      // the items), not the value of the label above it.
      const under = below && cellBelow(below, rows, pitch, slack);
      const column =
        below !== undefined &&
        under !== undefined &&
        !colonEmpty &&
        amountCell(below.text) &&
        amountCell(under.text) &&
        !labelledOnItsRow(under, rows);
      if (below && !column && !labels.has(below) && !/:$/.test(below.text)) {
        push(label, index, below, 'below');
        continue;
      }
      // "Bill to:" with the value on the next line, wherever it starts.
      const first = rows[index + 1]?.[0];
      if (colonEmpty && first && !labels.has(first) && !/:$/.test(first.text))
        push(label, index, first, 'below');
    }
  });
  return { fields, headers };
}

/**
 * The fields a table block holds: a two-column grid of labels and values, or a row of labels
 * over a single row of values.
 */
export function tableFields(table: DocumentTable): DocumentField[] {
  const out: DocumentField[] = [];
  const rows = [table.header, ...table.rows];
  const field = (label: string, value: DocumentTable['header'][number]): DocumentField => ({
    label: label.replace(/:$/, '').trim(),
    value: value.text,
    source: 'table',
    region: value.region,
    lineIndex: null,
  });
  const labelled = rows.filter((r) => r.length === 2 && isLabelCell(r[0]?.text ?? ''));
  // Two labels over two values ("Opening Balance | Ending Balance" over the amounts) are a row of
  // labels over its values, not two label/value pairs.
  if (
    !labelsOverValues(table) &&
    rows.every((r) => r.length === 2) &&
    labelled.length * 2 >= rows.length
  ) {
    for (const [label, value] of rows)
      if (label && value && value.text !== '' && isLabelCell(label.text))
        out.push(field(label.text, value));
    return out;
  }
  // Pairs side by side ("Account No. | 77118192 | Period | 1 Aug - 31 Aug 2022"): rows of an
  // even number of cells, each filled pair a label and a value, most values no label-shaped
  // text (an items table's header is all labels, its rows start with no label).
  const width = rows[0]?.length ?? 0;
  if (width >= 4 && width % 2 === 0 && rows.every((r) => r.length === width)) {
    const pairs = rows.flatMap((r) =>
      r.flatMap((label, i) => {
        const value = r[i + 1];
        return i % 2 === 0 && value && label.text !== '' && value.text !== ''
          ? [{ label, value }]
          : [];
      }),
    );
    const values = pairs.filter((p) => !isLabelCell(p.value.text)).length;
    if (
      pairs.length >= 2 &&
      pairs.every((p) => isLabelCell(p.label.text.replace(/:$/, ''))) &&
      values * 2 >= pairs.length
    ) {
      for (const { label, value } of pairs) out.push(field(label.text, value));
      return out;
    }
  }
  const beside = besideColumnFields(rows, field);
  if (beside.length > 0) return beside;
  const foot = footFields(table, field);
  if (foot.length > 0) return foot;
  // A row of labels over one row of values, or over blocks of words side by side ("Bill to" and
  // "Ship to" over their names and addresses): each label takes the first value under it.
  const [values] = table.rows;
  const words = table.rows.every((r) => r.every((c) => c.text === '' || !numeric(c.text)));
  if (
    (table.rows.length === 1 || words) &&
    values &&
    table.header.every((c) => c.text === '' || isLabelCell(c.text))
  ) {
    table.header.forEach((h, i) => {
      const v = values[i];
      if (h.text !== '' && v && v.text !== '') out.push(field(h.text, v));
    });
  }
  return out;
}

/**
 * The pairs of a table found in lines of text that is a column of labels beside a column of
 * values next to an address (see besideColumnFields); none for any other table.
 */
export function besideFields(table: DocumentTable): DocumentField[] {
  return besideColumnFields([table.header, ...table.rows], (label, value) => ({
    label: label.replace(/:$/, '').trim(),
    value: value.text,
    source: 'table',
    region: value.region,
    lineIndex: null,
  }));
}

/** A balance that opens or closes a statement, as a row of its transactions may name it. */
const BALANCE_ROW =
  /\b(?:opening|closing|previous|new|start(?:ing)?|end(?:ing)?|final)\s+balance\b|\bbalance\s+(?:brought|carried)\s+forward\b|\bbalance\s+[bc]\/f\b|^balance\s+forward$/i;

/**
 * A statement's opening or closing balance written as a row of its transactions ("Balance
 * brought forward" or "Balance on 1 April 2024" with the balance in the row's last cell): a
 * field of that balance. A balance named by its date alone is the opening one when the date is
 * on or before the table's first dated row, the closing one on or after its last.
 */
export function balanceRowFields(table: DocumentTable): DocumentField[] {
  const span = dateSpan(table.rows);
  const out: DocumentField[] = [];
  for (const row of table.rows) {
    // Each cell's label without its date, once: the row's balance label is the first that reads
    // as one.
    let label: string | undefined;
    const k = row.findIndex((c) => {
      label = undated(c.text, span);
      return BALANCE_ROW.test(label);
    });
    const value = row.findLast((c, i) => i > k && c.text !== '');
    if (k < 0 || label === undefined || !value || !isAmount(value.text)) continue;
    out.push({
      label,
      value: value.text,
      source: 'table',
      region: value.region,
      lineIndex: null,
    });
  }
  return out;
}

/**
 * The fields of a table found in lines of text that is a row of labels over one row of values
 * ("Opening Balance    Ending Balance" over the two amounts): each label takes the value under
 * it. A table of items over a single item is no such row ("Description    Qty    Amount").
 */
export function summaryRowFields(table: DocumentTable): DocumentField[] {
  return labelsOverValues(table) && !table.header.some((c) => ITEM_WHAT.test(c.text))
    ? tableFields(table)
    : [];
}

/**
 * The totals at the foot of an items table (`PO Total | £4,216.38`, `Tax | 20.00` in the last
 * columns of a sheet or a Word table, the figure sometimes one column right of the header's
 * last): the last rows whose only filled cells are a label and an amount side by side, under
 * rows that fill three cells or more.
 */
function footFields(
  table: DocumentTable,
  field: (label: string, value: DocumentCell) => DocumentField,
): DocumentField[] {
  const out: DocumentField[] = [];
  const rows = table.rows;
  let r = rows.length - 1;
  for (; r >= 0; r--) {
    const filled = (rows[r] ?? []).flatMap((c, i) => (c.text === '' ? [] : [i]));
    if (filled.length > 2) break;
    const [a, b] = filled;
    const label = a === undefined ? undefined : rows[r]?.[a];
    const value = b === undefined ? undefined : rows[r]?.[b];
    if (filled.length === 2 && b === (a as number) + 1 && label && value) {
      if (isLabelCell(label.text) && isAmount(value.text)) out.unshift(field(label.text, value));
    }
  }
  // The loop stops at a row of three filled cells or more (an item row): none, no item rows.
  return r >= 0 ? out : [];
}

/** True for a table of one row of labels over one row of values, every cell filled. */
function labelsOverValues(table: DocumentTable): boolean {
  return (
    table.rows.length === 1 &&
    table.header.every((c) => isLabelCell(c.text)) &&
    (table.rows[0] ?? []).every((c) => c.text !== '' && !isLabelCell(c.text))
  );
}

/**
 * A column of labels beside a column of values in a table of other things (an address column
 * beside "Account ID", "For the period", "Sort Code" and their values, as sheets laid out as
 * documents have): every filled cell of the label column is label-shaped and at least a third
 * of them end as a label does ("… ID", "… period", "…:"; "Bank", "Statement for" and "Opening
 * balance" do not), most of the value column's are no label-shaped text. A table with a column of
 * amounts is a table of items or transactions and has none.
 */
function besideColumnFields(
  rows: readonly (readonly DocumentCell[])[],
  field: (label: string, value: DocumentCell) => DocumentField,
): DocumentField[] {
  const width = rows[0]?.length ?? 0;
  if (width < 3 || !rows.every((r) => r.length === width)) return [];
  const filled = (c: number) => rows.map((r) => r[c]?.text ?? '').filter((t) => t !== '');
  for (let c = 0; c < width; c++) {
    const texts = filled(c);
    if (texts.length > 0 && texts.filter(isAmount).length * 2 >= texts.length) return [];
  }
  const out: DocumentField[] = [];
  for (let c = 0; c + 1 < width; c++) {
    const labels = filled(c);
    const values = filled(c + 1);
    if (
      labels.length < 2 ||
      !labels.every((t) => isLabelCell(t.replace(/:$/, ''))) ||
      labels.filter(endsAsLabel).length * 3 < labels.length ||
      values.filter((t) => !isLabelCell(t)).length * 2 < values.length
    )
      continue;
    for (const r of rows) {
      const label = r[c];
      const value = r[c + 1];
      if (label && value && label.text !== '' && value.text !== '')
        out.push(field(label.text, value));
    }
    c++;
  }
  return out;
}

/** True for a label's text that ends as labels do ("Account ID", "For the period", "Ref:"). */
function endsAsLabel(text: string): boolean {
  const last = text.trim().split(/\s+/).pop() ?? '';
  return /:$/.test(text) || LABEL_END_WORD.test(last) || DATE_LABEL_END.test(last);
}
