/**
 * Arrays of objects from tables: the table whose columns best fit the item properties (by
 * header, through the synonyms of text-tokens.ts), continued on later pages under the same
 * header. Where headers say too little ("Each", "Sum"), columns are given by what they hold:
 * a row's quantity × unit price = amount picks those three; the wordiest column is the
 * description. Statements with separate debit and credit columns give signed amounts. Total
 * and balance-forward rows are not items; a row holding only more description text continues
 * the row above (a wrapped cell).
 */

import type { SchemaNode } from '../schema-node.ts';
import { dice, labelTokens, tokens } from '../text-tokens.ts';
import { isDateText, parseDate, parseNumber } from '../value-coercion.ts';
import { TRAILING_AMOUNT } from '../view/cell-shapes.ts';
import type { DocumentCell, DocumentTable } from '../view/document-view.ts';

/** Matches weaker than this are not used. */
const MIN_SCORE = 0.5;

const TOTAL_ROW = /^(sub\s*-?\s*total|total|tax|vat|gst|balance due|amount due|grand total)\b/i;

/**
 * A row labelled as a receipt's foot, the whole label (`BALANCE`, `Change`, `Paid by`, `Amount
 * tendered`): never an item. The whole label only, so that `Cash deposit` stays an item.
 */
const FOOT_ROW =
  /^(balance|amount|change|cash|tendered|paid|paid by|payment|rounding|tip)(\s+(due|paid|tendered|received|given|method))?\s*:?$/i;
const SUMMARY_ROW =
  /\b((balance\s+)?(brought|carried)\s+forward|[bc]\/f|(opening|closing|previous|new|start(ing)?|end(ing)?|final)\s+balance|balance\s+at\s+(start|end))\b/i;

const DEBIT = /\b(debit|debits|withdrawals?|paid\s+out|money\s+out|out|dr|payments?|charges?)\b/i;
const CREDIT = /\b(credit|credits|deposits?|paid\s+in|money\s+in|in|cr|receipts?)\b/i;

/** What an item property holds, from its name and description. */
type ItemRole = 'quantity' | 'unit' | 'amount' | 'description' | 'date' | 'balance' | undefined;

function itemRole(name: string, node: SchemaNode): ItemRole {
  const own = new Set(tokens(name));
  if (node.kind === 'date') return 'date';
  if (own.has('balance')) return 'balance';
  if (own.has('quantity') || own.has('count') || own.has('piece') || own.has('pc'))
    return 'quantity';
  if (
    own.has('unit') ||
    (own.has('price') && own.size === 1 && !/amount|total|charged/i.test(node.description ?? ''))
  )
    return node.kind === 'string' ? undefined : 'unit';
  if (
    own.has('amount') ||
    own.has('total') ||
    own.has('sum') ||
    own.has('value') ||
    own.has('price') ||
    own.has('extended')
  )
    return node.kind === 'string' ? undefined : 'amount';
  if (node.kind === 'string' || node.kind === 'unknown') return 'description';
  return describedRole(node.description ?? '');
}

/**
 * The role of a figure whose name says nothing of it ("pieces", "charged"), from what its
 * description says: a price per unit, a line's total, or a count.
 */
function describedRole(description: string): ItemRole {
  const said = new Set(tokens(description));
  if (said.has('unit') || said.has('each') || said.has('per')) return 'unit';
  if (['total', 'amount', 'sum', 'time', 'multiplied', 'line'].some((t) => said.has(t)))
    return 'amount';
  if (['quantity', 'count', 'many', 'piece'].some((t) => said.has(t))) return 'quantity';
  return undefined;
}

/** Words of a column header, by the item role they name ("Item / Service", "Qty", "Line Total"). */
const HEADER_ROLES: readonly (readonly [NonNullable<ItemRole>, readonly string[]])[] = [
  ['balance', ['balance']],
  ['date', ['date']],
  ['quantity', ['quantity', 'count', 'piece', 'pc', 'hour', 'hr']],
  ['unit', ['unit', 'each', 'per']],
  ['amount', ['amount', 'total', 'sum', 'value', 'price', 'subtotal', 'extended', 'net', 'gross']],
  [
    'description',
    ['description', 'service', 'article', 'particular', 'good', 'detail', 'name', 'text'],
  ],
];

/** The item role a column header names, if it names one. */
function headerRole(text: string): ItemRole {
  const words = new Set(labelTokens(text));
  return HEADER_ROLES.find(([, names]) => names.some((n) => words.has(n)))?.[0];
}

export interface ColumnMap {
  readonly columns: Map<string, number>;
  /** Signed amounts from a debit and a credit column, for the property named. */
  readonly split?: { readonly name: string; readonly debit: number; readonly credit: number };
  readonly score: number;
}

const num = (cell: DocumentCell | undefined) => (cell ? parseNumber(cell.text) : undefined);

/**
 * True when most filled cells of a column read as the kind (dates, with or without their year;
 * numbers); else any kind.
 */
function holds(
  table: DocumentTable,
  column: number,
  kind: string | undefined,
  share = 0.5,
): boolean {
  if (kind !== 'date' && kind !== 'number' && kind !== 'integer' && kind !== 'currency')
    return true;
  const filled = table.rows.map((r) => r[column]?.text ?? '').filter((t) => t !== '');
  if (filled.length === 0) return true;
  const ok = filled.filter((t) =>
    kind === 'date'
      ? isDateText(t)
      : /\d/.test(t) && parseNumber(t) !== undefined && parseDate(t) === undefined,
  );
  return ok.length >= filled.length * share;
}

/** A cell that holds a code: one word with a digit and no lower-case run (`SKU-4471`, `PN93604`). */
const CODE = /^(?=\S*\d)[A-Z0-9][A-Z0-9./#-]*$/i;

/** True when 60% or more of a column's filled cells pass `test`; false for an empty column. */
function mostly(table: DocumentTable, column: number, test: (text: string) => boolean): boolean {
  const filled = table.rows.map((r) => r[column]?.text.trim() ?? '').filter((t) => t !== '');
  return filled.length > 0 && filled.filter(test).length >= filled.length * 0.6;
}

/** True when most filled cells of a column are codes, not figures (a part number column). */
const codeColumn = (table: DocumentTable, column: number) =>
  mostly(table, column, (t) => CODE.test(t) && !/^[\d.,]+$/.test(t) && !/[a-z]{3}/.test(t));

/** True when most filled cells of a column are percentages (a tax rate per line). */
const percentColumn = (table: DocumentTable, column: number) =>
  mostly(table, column, (t) => /^\d{1,3}(?:[.,]\d+)?\s?%$/.test(t));

/** Columns whose cells are mostly numbers. */
function numericColumns(table: DocumentTable): number[] {
  const width = table.header.length;
  const out: number[] = [];
  for (let c = 0; c < width; c++) {
    const filled = table.rows.filter((r) => (r[c]?.text ?? '') !== '');
    const numbers = filled.filter((r) => {
      const t = r[c]?.text ?? '';
      return (
        /\d/.test(t) &&
        !/[a-z]{3,}/i.test(t.replace(/[A-Z]{3}|Rs\.?/g, '')) &&
        !isDateText(t) &&
        parseNumber(t) !== undefined
      );
    });
    if (filled.length > 0 && numbers.length >= filled.length * 0.7) out.push(c);
  }
  return out;
}

/** quantity, unit price and amount columns from rows where quantity × price = amount. */
function arithmeticColumns(
  table: DocumentTable,
): { quantity: number; unit: number; amount: number } | undefined {
  const cols = numericColumns(table);
  let best: { quantity: number; unit: number; amount: number; hits: number } | undefined;
  for (const a of cols)
    for (const q of cols)
      for (const u of cols) {
        if (a === q || a === u || q === u || q > u) continue;
        let hits = 0;
        for (const row of table.rows) {
          const [x, y, z] = [num(row[q]), num(row[u]), num(row[a])];
          if (
            x !== undefined &&
            y !== undefined &&
            z !== undefined &&
            Math.abs(x * y - z) <= 0.011 + Math.abs(z) * 1e-6
          )
            hits++;
        }
        if (!best || hits > best.hits) best = { quantity: q, unit: u, amount: a, hits };
      }
  if (!best || best.hits < Math.max(1, table.rows.length * 0.5)) return undefined;
  // Of the two factors, the quantity is the one with whole numbers.
  const whole = (c: number) => table.rows.every((r) => Number.isInteger(num(r[c]) ?? 0));
  if (!whole(best.quantity) && whole(best.unit))
    return { quantity: best.unit, unit: best.quantity, amount: best.amount };
  return best;
}

/**
 * A statement's debit and credit columns among the free ones: the other side of `column` when
 * its header names one side only, or, without a column, the first free header of each side.
 */
function debitCredit(
  table: DocumentTable,
  free: (column: number) => boolean,
  column?: number,
): { debit: number; credit: number } | undefined {
  const first = (side: RegExp, not = -1) =>
    table.header.findIndex((h, c) => free(c) && c !== not && side.test(h.text));
  if (column === undefined) {
    const debit = first(DEBIT);
    const credit = first(CREDIT, debit);
    return debit >= 0 && credit >= 0 ? { debit, credit } : undefined;
  }
  const header = table.header[column]?.text ?? '';
  const debitSide = DEBIT.test(header) && !CREDIT.test(header);
  if (!debitSide && !(CREDIT.test(header) && !DEBIT.test(header))) return undefined;
  const other = first(debitSide ? CREDIT : DEBIT);
  if (other < 0) return undefined;
  return debitSide ? { debit: column, credit: other } : { debit: other, credit: column };
}

/** Maps item properties to table columns; the mapping and its strength (0 when unusable). */
export function mapColumns(items: SchemaNode, table: DocumentTable): ColumnMap {
  const props = items.kind === 'object' ? (items.properties ?? []) : [];
  const pairs: { name: string; column: number; score: number }[] = [];
  for (const prop of props) {
    const nameTokens = [
      ...new Set([...labelTokens(prop.name), ...labelTokens(prop.node.title ?? '')]),
    ];
    const descriptionTokens = new Set(tokens(prop.node.description ?? ''));
    table.header.forEach((cell, column) => {
      const cellTokens = labelTokens(cell.text);
      let score = dice(nameTokens, cellTokens);
      if (cellTokens.length > 0 && cellTokens.every((t) => descriptionTokens.has(t)))
        score = Math.max(score, 0.65);
      if (score >= MIN_SCORE) pairs.push({ name: prop.name, column, score });
    });
  }
  pairs.sort((a, b) => b.score - a.score);
  // A column of codes (`ART-15693`, `PN-93604` under `Item`, `Item Code`) names no description:
  // a text property meets it only when no other header names the property.
  const textProps = new Set(
    props.filter((p) => p.node.kind === 'string' || p.node.kind === 'unknown').map((p) => p.name),
  );
  for (const name of textProps) {
    const own = pairs.filter((p) => p.name === name);
    if (own.some((p) => !codeColumn(table, p.column)))
      for (const p of own) if (codeColumn(table, p.column)) p.score = 0;
  }
  const columns = new Map<string, number>();
  const used = new Set<number>();
  let total = 0;
  const kinds = new Map(props.map((p) => [p.name, p.node.kind]));
  const roles = new Map(props.map((p) => [p.name, itemRole(p.name, p.node)]));
  // A rate in percent (`Tax rate  10%`) is no count, price or amount.
  const figures = (name: string, c: number) => {
    const role = roles.get(name);
    return (
      !(role === 'quantity' || role === 'unit' || role === 'amount') || !percentColumn(table, c)
    );
  };
  for (const pair of pairs) {
    if (pair.score === 0 || columns.has(pair.name) || used.has(pair.column)) continue;
    if (!figures(pair.name, pair.column)) continue;
    // A header may name a column whose cells are not what the property holds ("Date
    // Transaction" over descriptions): dates and numbers must be there.
    if (!holds(table, pair.column, kinds.get(pair.name))) continue;
    columns.set(pair.name, pair.column);
    used.add(pair.column);
    total += pair.score;
  }
  const free = (c: number) => !used.has(c);
  const arithmetic = arithmeticColumns(table);
  // Headers that name what a property holds in other words ("Item / Service" for an `article`,
  // "Total" for what a line was `charged`): a property and a header of the same role meet.
  for (const prop of props) {
    const role = roles.get(prop.name);
    if (columns.has(prop.name) || role === undefined) continue;
    const named = (c: number) =>
      free(c) &&
      headerRole(table.header[c]?.text ?? '') === role &&
      holds(table, c, prop.node.kind) &&
      figures(prop.name, c);
    // Of two columns a header names so (`Price` and `Total` both read as an amount), the one
    // whose figures are count × price is the amount, the other the price.
    const proven =
      arithmetic && (role === 'amount' || role === 'unit') ? arithmetic[role] : undefined;
    const column =
      proven !== undefined && named(proven) ? proven : table.header.findIndex((_, c) => named(c));
    if (column < 0) continue;
    columns.set(prop.name, column);
    used.add(column);
    total += 0.55;
  }
  const headerMatched = columns.size;
  // Columns by content for properties no header named.
  let split: ColumnMap['split'];
  // An amount matched to one side of a statement that has both ("Withdrawals" for an amount
  // described as "negative for withdrawals") is the signed amount of the two.
  for (const prop of props) {
    const column = columns.get(prop.name);
    if (column === undefined || roles.get(prop.name) !== 'amount') continue;
    const sides = debitCredit(table, free, column);
    if (!sides) continue;
    columns.delete(prop.name);
    split = { name: prop.name, ...sides };
    used.add(sides.debit).add(sides.credit);
  }
  for (const prop of props) {
    if (columns.has(prop.name) || split?.name === prop.name) continue;
    const role = roles.get(prop.name);
    let column: number | undefined;
    if (arithmetic && (role === 'quantity' || role === 'unit' || role === 'amount'))
      column = arithmetic[role];
    if (role === 'amount' && column === undefined) {
      const sides = debitCredit(table, free);
      if (sides) {
        split = { name: prop.name, ...sides };
        used.add(sides.debit).add(sides.credit);
        total += 0.6;
        continue;
      }
    }
    if (role === 'date' && column === undefined)
      column = table.header.findIndex((_, c) => free(c) && holds(table, c, 'date', 0.8));
    if (column !== undefined && column < 0) column = undefined;
    if (role === 'description' && column === undefined) {
      // The wordiest free column.
      let letters = 0;
      table.header.forEach((_, c) => {
        if (!free(c)) return;
        const n = table.rows.reduce(
          (a, r) => a + ((r[c]?.text ?? '').match(/\p{L}/gu) ?? []).length,
          0,
        );
        if (n > letters) [letters, column] = [n, c];
      });
    }
    if (column !== undefined && free(column)) {
      columns.set(prop.name, column);
      used.add(column);
      total += 0.55;
    }
  }
  // Numeric columns no header named, by convention of item tables: the amount is the last money
  // column, the quantity a column of whole numbers, the unit price what remains.
  const numericFree = () => numericColumns(table).filter(free);
  const withDecimals = (c: number) =>
    table.rows.some((r) => /\d[.,]\d{2}\b/.test(r[c]?.text ?? ''));
  const assign = (name: string, column: number | undefined) => {
    if (column === undefined) return;
    columns.set(name, column);
    used.add(column);
    total += 0.5;
  };
  for (const prop of props) {
    if (columns.has(prop.name) || split?.name === prop.name) continue;
    const role = roles.get(prop.name);
    const candidates = numericFree();
    if (role === 'amount') assign(prop.name, candidates.filter(withDecimals).pop());
    else if (role === 'quantity')
      assign(
        prop.name,
        candidates.find((c) => table.rows.every((r) => Number.isInteger(num(r[c]) ?? 0))),
      );
  }
  for (const prop of props) {
    if (columns.has(prop.name) || roles.get(prop.name) !== 'unit') continue;
    assign(prop.name, numericFree().filter(withDecimals)[0]);
  }
  const needed = Math.min(2, props.length);
  // A table qualifies by a header naming an item property, or by rows whose quantity × price
  // make their amount.
  if ((headerMatched === 0 && !arithmetic) || columns.size + (split ? 1 : 0) < needed)
    return { columns, score: 0 };
  return { columns, ...(split ? { split } : {}), score: total / Math.max(props.length, 1) };
}

/** Rows of a table as items: totals and balance-forward rows dropped, wrapped cells joined. */
export function itemRows(
  table: DocumentTable,
  map: ColumnMap,
  descriptionColumn: number | undefined,
): DocumentCell[][] {
  const out: DocumentCell[][] = [];
  const mapped = [
    ...map.columns.values(),
    ...(map.split ? [map.split.debit, map.split.credit] : []),
  ];
  for (const row of table.rows) {
    // The row's label: its first text but a lone letter or mark before it (an OCR speck, a tax
    // code), so that `g    Total excl. tax` is a total.
    const first = (
      row.find((c) => c.text !== '' && !/^[^\p{N}]$/u.test(c.text))?.text ?? ''
    ).replace(/^[^\p{N}\s]\s+(?=\p{L})/u, '');
    if (TOTAL_ROW.test(first) || FOOT_ROW.test(first)) continue;
    const amountCells = [...map.columns.entries()]
      .filter(([, c]) => c !== descriptionColumn)
      .map(([, c]) => row[c]?.text ?? '');
    // A wrapped cell (a description, a date set on two lines): the row holds text in one
    // column only, and it is not a figure.
    const texts = row.flatMap((c, i) => (c.text === '' ? [] : [i]));
    const at = texts[0];
    if (
      texts.length === 1 &&
      at !== undefined &&
      out.length > 0 &&
      (mapped.includes(at) || at === descriptionColumn)
    ) {
      const previous = out[out.length - 1] as DocumentCell[];
      const cell = previous[at];
      const more = row[at];
      // (Not a figure, nor words and an amount: `Order Amount CA$ 6,054.87` is a total's line.)
      if (
        cell &&
        more &&
        cell.text !== '' &&
        !/^[-+(]?\p{Sc}?\s?\d[\d.,]*\)?$/u.test(more.text) &&
        !TRAILING_AMOUNT.test(more.text)
      ) {
        previous[at] = { ...cell, text: `${cell.text} ${more.text}` };
        continue;
      }
    }
    if (
      row.some((c) => SUMMARY_ROW.test(c.text)) &&
      (map.split ? !(row[map.split.debit]?.text || row[map.split.credit]?.text) : true) &&
      amountCells.filter((t) => t !== '').length <= 2
    )
      continue;
    out.push([...row]);
  }
  return out;
}

/**
 * A figure as OCR misreads it in a scanned table's cell, read back: a speck of punctuation after
 * it (`1;`, `13.21;`) dropped, a decimal point read as a colon (`17:70`) restored. Text of cells
 * that were not OCR'd is left as it is (`11:12` there is a time).
 */
export function ocrFigure(text: string, region: DocumentCell['region']): string {
  if (region.ocrConfidence === null) return text;
  const trimmed = text.replace(/(?<=\d)[;:,.]$/, '');
  return /^\d+:\d{2}$/.test(trimmed) ? trimmed.replace(':', '.') : trimmed;
}

const CR_DR = /\d\s*(CR|DR)\.?$/i;

/**
 * True when the table's figures say their side with a `CR` or `DR` after them, both kinds present
 * (a statement's `80.00 DR`, `1,250.00 CR`): money in is `CR` then, not a credit note's minus.
 */
export function sidedBySuffix(table: DocumentTable): boolean {
  let credit = false;
  let debit = false;
  for (const row of table.rows)
    for (const cell of row) {
      const side = CR_DR.exec(cell.text)?.[1]?.toUpperCase();
      if (side === 'CR') credit = true;
      else if (side === 'DR') debit = true;
      if (credit && debit) return true;
    }
  return false;
}

/** A figure of a table {@link sidedBySuffix}: `DR` negative, `CR` positive, else as it reads. */
export function sidedFigure(text: string, value: number): number {
  const side = CR_DR.exec(text)?.[1]?.toUpperCase();
  return side === 'DR' ? -Math.abs(value) : side === 'CR' ? Math.abs(value) : value;
}

/** The signed amount of a row from its debit and credit cells. */
export function splitAmount(
  row: readonly DocumentCell[],
  split: NonNullable<ColumnMap['split']>,
): { value: number; cell: DocumentCell } | undefined {
  const debit = num(row[split.debit]);
  const credit = num(row[split.credit]);
  if (debit !== undefined && row[split.debit])
    return { value: -Math.abs(debit), cell: row[split.debit] as DocumentCell };
  if (credit !== undefined && row[split.credit])
    return { value: Math.abs(credit), cell: row[split.credit] as DocumentCell };
  return undefined;
}

/**
 * A quantity written into an item's description, as till receipts do: "2 x Coffee",
 * "Coffee 2 @ 1.50", "Coffee 2 x 1.50", "Coffee x2". Undefined when the text has none.
 */
export function splitQuantity(
  text: string,
  leadingCount = false,
): { quantity: number; description: string } | undefined {
  const t = text.trim();
  let m = /^(\d{1,4}(?:[.,]\d+)?)\s*[x×*]\s+(\S.*)$/i.exec(t);
  if (m?.[1] && m[2]) return { quantity: Number(m[1].replace(',', '.')), description: m[2] };
  // "Bagel 2 @ 15,44 €", "Pens 1 @" (the unit price cut off into the next column), "Tea 2 x 1.50",
  // "Tea 2x1.50" (a price right after the x, as a till's two-line item reads).
  // "Bananas 0.456 kg @ 2.99/kg": a weight at a price per unit of it.
  m =
    /^(\S.*?)\s+(\d{1,4}(?:[.,]\d+)?)\s*(?:kg|g|lbs?|oz|l|ml)?\s*(?:@\s*(?:\S.*)?|[x×]\s+\S.*|[x×]\d+[.,]\d{2}\S*)$/i.exec(
      t,
    );
  if (m?.[1] && m[2]) return { quantity: Number(m[2].replace(',', '.')), description: m[1] };
  // "Latte x2", "Latte × 2", "Latte (x2)": the count after the item.
  m = /^(\S.*?)\s+\(?[x×]\s?(\d{1,3})\)?$/i.exec(t);
  if (m?.[1] && m[2]) return { quantity: Number(m[2]), description: m[1] };
  // "4 Water bottle" under a header that names the count first ("Qty Item").
  m = leadingCount ? /^(\d{1,4})\s+(\p{L}.*)$/u.exec(t) : null;
  if (m?.[1] && m[2]) return { quantity: Number(m[1]), description: m[2] };
  return undefined;
}

/** A header that names a count before the item ("Qty Item", "Quantity / Description"). */
export const COUNT_FIRST = /^(qty|quantity|quantities|count|units?|pcs|menge|anz(ahl)?)\b/i;
