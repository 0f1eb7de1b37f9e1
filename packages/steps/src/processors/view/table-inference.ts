/**
 * Tables of a view: from a table block's cells, from markdown table text, and inferred from
 * consecutive lines whose cells line up (equal cell counts, or columns found in the whitespace
 * between words when a layout parser merged or split cells).
 */
import type { Block } from '../../parse/parse-output.ts';
import { dayAndMonth, isDateText, parseDate } from '../value-coercion.ts';
import { plain } from './block-text.ts';
import { AMOUNT_BODY, isAmount, isLabelCell, TRAILING_AMOUNT } from './cell-shapes.ts';
import type { DocumentCell, DocumentLine, DocumentRegion, DocumentTable } from './document-view.ts';
import { boxOf, linePolygon, regionOf } from './view-geometry.ts';

/** Splits a line into cells: on `|`, tabs, or runs of two or more spaces. */
export function splitCells(text: string): { text: string; start: number; end: number }[] {
  const cells: { text: string; start: number; end: number }[] = [];
  const separator = text.includes('|') ? /\|/g : text.includes('\t') ? /\t+/g : / {2,}/g;
  let start = 0;
  // A plain loop without inner closures: this runs for every line of every page.
  for (;;) {
    const match = separator.exec(text);
    const end = match ? match.index : text.length;
    const raw = text.slice(start, end);
    const value = raw.trim();
    if (value !== '') {
      const lead = raw.length - raw.trimStart().length;
      cells.push({ text: value, start: start + lead, end: start + lead + value.length });
    }
    if (!match) break;
    start = match.index + match[0].length;
  }
  return cells;
}

const TOTAL_LINE = /^\s*(sub\s*-?\s*total|total|tax|vat|balance|amount due|grand total)\b/i;

/**
 * A balance brought or carried forward (`Balance brought forward`, `Carried forward`, `b/f`): a
 * row of a statement's table where a page ends or starts, not the end of its rows.
 */
const FORWARD_LINE = /\b(brought|carried)\s+forward\b|(^|\s)[bc]\/f\b/i;

/** A date at the start of a text, and the rest ("1 March 2024 Standing order RENT"). */
const LEADING_DATE =
  /^(\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}\.?[-\s][A-Za-z]{3,9}\.?[-\s,]+\d{2,4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4})\s+(\S.*)$/;

interface PositionedWord {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly line: DocumentLine;
  readonly start: number;
  readonly end: number;
}

/** The words of a line with their x extents (from segments, the line polygon, or offsets). */
function positionedWords(line: DocumentLine): PositionedWord[] {
  const pieces = line.segments ?? [
    { start: 0, end: line.text.length, polygon: line.layout ? [] : line.polygon },
  ];
  const words: PositionedWord[] = [];
  for (const piece of pieces) {
    const box = boxOf(piece.polygon);
    const length = Math.max(1, piece.end - piece.start);
    const text = line.text.slice(piece.start, piece.end);
    for (const m of text.matchAll(/\S+/g)) {
      const a = m.index;
      const b = a + m[0].length;
      const column = line.column ?? 0;
      const x0 = box ? box.left + ((box.right - box.left) * a) / length : column + piece.start + a;
      const x1 = box ? box.left + ((box.right - box.left) * b) / length : column + piece.start + b;
      words.push({ text: m[0], x0, x1, line, start: piece.start + a, end: piece.start + b });
    }
  }
  return words;
}

/**
 * The words of a line whose cells share one box, each at the extent of its cell (a cell's words
 * stay together): the first cell starts where the box starts, the last ends where it ends, each
 * `charWidth` wide a character; cells between keep their share of the box.
 */
function cellWords(line: DocumentLine, charWidth: number): PositionedWord[] {
  const box = boxOf(line.polygon);
  const cells = wordsOfCells(line, positionedWords(line));
  return cells.flatMap(({ cell, inside }, n) => {
    let x0 = Math.min(...inside.map((w) => w.x0));
    let x1 = Math.max(...inside.map((w) => w.x1));
    const width = cell.text.length * charWidth;
    if (box && n === 0) [x0, x1] = [box.left, box.left + width];
    else if (box && n === cells.length - 1) [x0, x1] = [box.right - width, box.right];
    return inside.map((w) => ({ ...w, x0, x1 }));
  });
}

/** A line's cells (runs of words two or more spaces apart), each with its positioned words. */
function wordsOfCells(
  line: DocumentLine,
  words: readonly PositionedWord[],
): { cell: { text: string; start: number; end: number }; inside: PositionedWord[] }[] {
  return splitCells(line.text).map((cell) => ({
    cell,
    inside: words.filter((w) => w.start >= cell.start && w.end <= cell.end),
  }));
}

/** The x extents of a header line's cells. */
function headerCells(
  line: DocumentLine | undefined,
  words: readonly PositionedWord[],
): { x0: number; x1: number }[] {
  if (!line) return [];
  return wordsOfCells(line, words).flatMap(({ inside }) => {
    const a = inside[0];
    const b = inside[inside.length - 1];
    return a && b ? [{ x0: a.x0, x1: b.x1 }] : [];
  });
}

/**
 * A table from lines whose columns line up: column separators are the x ranges that no word of
 * any line covers (whitespace rivers); each line's words are then dealt to the columns.
 */
function alignedTable(
  lines: readonly DocumentLine[],
  fileId: string | undefined,
  joined: ReadonlySet<number> = new Set(),
  leads: ReadonlySet<number> = new Set(),
): DocumentTable | null {
  // Rows whose cells have boxes of their own (runs, a table block's cells) say where columns
  // are; a row of several cells in one box (a text block with gaps) only that its cells are in
  // order: where enough rows have boxes, its words are placed as whole cells (cellWords).
  const boxed = (line: DocumentLine) =>
    !!line.layout || line.segments !== undefined || splitCells(line.text).length < 2;
  const rowsBoxed = lines.filter((l, n) => n > 0 && !joined.has(n) && boxed(l)).length >= 2;
  const words = lines.map(positionedWords);
  // Columns come from the data rows: headers are shorter and more often joined ("Quantity Rate");
  // a cell's wrapped line, a balance carried forward (a label across columns) and, among rows
  // with boxes, a row without draw none.
  const data = words.filter(
    (_, n) =>
      n > 0 &&
      !joined.has(n) &&
      !leads.has(n) &&
      !FORWARD_LINE.test(lines[n]?.text ?? '') &&
      (!rowsBoxed || boxed(lines[n] as DocumentLine)),
  );
  const all = (data.length > 0 ? data : words).flat().sort((a, b) => a.x0 - b.x0);
  const first = all[0];
  if (!first) return null;
  const spaces = all.map((w) => (w.x1 - w.x0) / Math.max(1, w.text.length));
  const charWidth = spaces.sort((a, b) => a - b)[Math.floor(spaces.length / 2)] ?? 1;
  const byLine = lines.map((line, n) =>
    rowsBoxed && !boxed(line) ? cellWords(line, charWidth) : (words[n] as PositionedWord[]),
  );
  const columns: { x0: number; x1: number }[] = [{ x0: first.x0, x1: first.x1 }];
  for (const w of all) {
    const current = columns[columns.length - 1];
    if (!current) break;
    // A gap of more than about one space between covered ranges starts a new column.
    if (w.x0 > current.x1 + 1.5 * charWidth) columns.push({ x0: w.x0, x1: w.x1 });
    else current.x1 = Math.max(current.x1, w.x1);
  }
  // A header cell over no column of these rows heads a column they leave empty (`Credit` over a
  // page whose one row is a withdrawal): a column of its own, not a word of its neighbour's.
  // (Only where the header's cells have their own boxes: a line's share of its block says too
  // little of where a word is.)
  const headed = lines[0]?.segments ? headerCells(lines[0], byLine[0] ?? []) : [];
  for (const head of headed)
    if (!columns.some((c) => c.x0 <= head.x1 && head.x0 <= c.x1)) columns.push(head);
  columns.sort((a, b) => a.x0 - b.x0);
  // A column under two header words that a layout parser merged in the rows ("10/20/2023 ATM
  // withdrawal" under "Date" and "Description"): the rows' first word goes to the first.
  const headerWords = byLine[0] ?? [];
  const split: { x0: number; x1: number; lead?: boolean }[] = [];
  for (const column of columns) {
    const heads = headerWords.filter((w) => w.x0 >= column.x0 - 0.5 && w.x1 <= column.x1 + 0.5);
    const gapAt = heads.findIndex(
      (w, n) => n > 0 && w.x0 - (heads[n - 1]?.x1 ?? w.x0) > 1.5 * charWidth,
    );
    const second = heads[gapAt];
    if (gapAt > 0 && second) {
      split.push(
        { x0: column.x0, x1: second.x0 - 0.01, lead: true },
        { x0: second.x0, x1: column.x1 },
      );
    } else split.push(column);
  }
  if (split.length < 2) return null;
  const dealt = byLine.map((words, n) => {
    const line = lines[n] as DocumentLine;
    const placed = new Map<PositionedWord, number>();
    const center = (w: PositionedWord) => (w.x0 + w.x1) / 2;
    for (const w of words) {
      // The nearest column (distance 0 inside it).
      let c = 0;
      let best = Number.POSITIVE_INFINITY;
      split.forEach((col, k) => {
        const d = Math.max(col.x0 - center(w), center(w) - col.x1, 0);
        if (d < best) [best, c] = [d, k];
      });
      placed.set(w, c);
    }
    // A header cell (words two spaces apart from the next) dealt to two columns heads one: the
    // one it covers most (`Unit Price` over the unit prices, not `Unit` over a column of labels
    // left of them), unless the header's words name a pair of columns the rows merged (and only
    // where its cells have boxes of their own: a run of two cells in one box is no one cell).
    if (n === 0 && line.segments && !split.some((c) => c.lead))
      for (const cell of headerCells(line, words)) {
        const inside = words.filter((w) => w.x0 >= cell.x0 && w.x1 <= cell.x1);
        if (new Set(inside.map((w) => placed.get(w))).size < 2) continue;
        const overlap = split.map((col) => Math.min(col.x1, cell.x1) - Math.max(col.x0, cell.x0));
        const most = Math.max(...overlap);
        if (most > 0) for (const w of inside) placed.set(w, overlap.indexOf(most));
      }
    split.forEach((column, c) => {
      // In a merged pair, only the first word of a data row belongs to the leading column.
      if (!column.lead || n === 0 || joined.has(n) || leads.has(n)) return;
      const pair = words.filter((w) => placed.get(w) === c || placed.get(w) === c + 1);
      // A date of several words ("1 March 2024", "Mar 4, 2025") leads as a whole.
      const date = LEADING_DATE.exec(pair.map((w) => w.text).join(' '));
      const count = date?.[1] ? date[1].split(/\s+/).length : 1;
      if (
        pair[0] &&
        /\d/.test(
          pair
            .slice(0, count)
            .map((w) => w.text)
            .join(' '),
        )
      ) {
        pair.forEach((w, n) => {
          placed.set(w, n < count ? c : c + 1);
        });
      }
    });
    return split.map((_, c) => {
      const inside = words.filter((w) => placed.get(w) === c);
      const start = inside[0]?.start ?? 0;
      const end = inside[inside.length - 1]?.end ?? 0;
      return {
        text: inside.map((w) => w.text).join(' '),
        region: regionOf(line, inside.length > 0 ? linePolygon(line, start, end) : []),
      };
    });
  });
  // A row's first line (a name wrapped before the row's figures) goes before its cells.
  dealt.forEach((cells, n) => {
    const below = dealt[n + 1];
    if (!leads.has(n) || !below) return;
    cells.forEach((cell, c) => {
      const under = below[c];
      if (cell.text === '' || !under) return;
      below[c] = under.text === '' ? cell : { ...under, text: `${cell.text} ${under.text}` };
    });
  });
  // A wrapped line's words go on the cells of the row above, column by column.
  const rows: DocumentCell[][] = [];
  dealt.forEach((cells, n) => {
    if (leads.has(n) && dealt[n + 1]) return;
    const above = rows[rows.length - 1];
    if (!joined.has(n) || !above || rows.length < 2) {
      rows.push(cells);
      return;
    }
    cells.forEach((cell, c) => {
      const top = above[c];
      if (cell.text === '' || !top) return;
      above[c] = top.text === '' ? cell : { ...top, text: `${top.text} ${cell.text}` };
    });
  });
  const headerLine = lines[0] as DocumentLine;
  // A header of one cell per column heads them in order, wherever its words seem to be.
  const heads = splitCells(headerLine.text);
  if (heads.length === split.length && split.every((c) => !c.lead))
    rows[0] = heads.map((h) => ({
      text: h.text,
      region: regionOf(headerLine, linePolygon(headerLine, h.start, h.end)),
    }));
  const [header, ...body] = rows;
  if (!header || body.length === 0 || header.filter((c) => c.text !== '').length < 2) return null;
  return { page: headerLine.page, ...(fileId === undefined ? {} : { fileId }), header, rows: body };
}

/**
 * A narrow numeric first column that the layout joined to the next one: every row's first cell
 * starts with a number ("1 Paint, matte white", "4 Bagel", "0.228 kg Tomatoes"). Split off when the numbers count
 * the rows (a "#" column) or when the header's first cell names two columns ("Qty Item").
 */
function splitLeadingNumbers(table: DocumentTable): DocumentTable {
  // A weight with its unit (`0.228 kg Tomatoes`) is a count too.
  const numbers = table.rows.map((row) =>
    /^(\d{1,4}(?:[.,]\d+)?(?:\s?(?:kg|g|lbs?|oz|l|ml)\b)?)\s+(\S.*)$/.exec(row[0]?.text ?? ''),
  );
  const headText = table.header[0]?.text ?? '';
  if (table.rows.length < 2 || /^\d/.test(headText)) return table;
  if (!numbers.every((m) => m !== null)) return table;
  const first = Number(numbers[0]?.[1]);
  const counting = numbers.every((m, i) => Number(m?.[1]) === first + i);
  // Not counting the rows, the numbers are a column only where the header names it first
  // ("Qty Item"), not in any header of two words ("Item / Service" over "4 x Coffee").
  const words = /^(\S+)\s+(\S.*)$/.exec(headText);
  if (
    !counting &&
    !(
      words &&
      /^(#|no\.?|nr\.?|pos\.?|qty|quantity|count|units?|pcs|menge|anz(ahl)?)$/i.test(words[1] ?? '')
    )
  )
    return table;
  const head = table.header[0] as DocumentCell;
  const split: DocumentCell[] = counting
    ? [{ ...head, text: '#' }, head]
    : [
        { ...head, text: words?.[1] ?? '' },
        { ...head, text: words?.[2] ?? '' },
      ];
  return {
    ...table,
    header: [...split, ...table.header.slice(1)],
    rows: table.rows.map((row, i) => {
      const cell = row[0] as DocumentCell;
      const m = numbers[i] as RegExpExecArray;
      return [
        { ...cell, text: m[1] as string },
        { ...cell, text: m[2] as string },
        ...row.slice(1),
      ];
    }),
  };
}

/**
 * A date column joined to the next one ("2022-11-03 Direct debit" under "Posting Date
 * Transaction"): every row's first cell starts with a date. Split off, the header after its word
 * "date" (or its first word).
 */
function splitLeadingDates(table: DocumentTable): DocumentTable {
  const dates = table.rows.map((row) => leadingDate(row[0]?.text ?? ''));
  const head = table.header[0];
  // A balance carried forward among the rows has no date: its words are the second column's.
  const forward = (i: number) => FORWARD_LINE.test(table.rows[i]?.[0]?.text ?? '');
  if (!head || !dates.some((m) => m?.full) || !dates.every((m, i) => m !== undefined || forward(i)))
    return table;
  const words = head.text.split(/\s+/);
  if (words.length < 2) return table;
  const at = words.findIndex((w) => /^date$/i.test(w));
  const cut = at >= 0 && at < words.length - 1 ? at + 1 : 1;
  return {
    ...table,
    header: [
      { ...head, text: words.slice(0, cut).join(' ') },
      { ...head, text: words.slice(cut).join(' ') },
      ...table.header.slice(1),
    ],
    rows: table.rows.map((row, i) => {
      const cell = row[0] as DocumentCell;
      const m = dates[i] ?? { date: '', rest: cell.text };
      return [{ ...cell, text: m.date }, { ...cell, text: m.rest }, ...row.slice(1)];
    }),
  };
}

/**
 * A date whose year a narrow cell wrapped onto its next line, which the row's text then gives
 * after the next column's words (`September 3,` over `2025` beside `Direct debit`: `September 3,
 * Direct debit 2025`).
 */
const WRAPPED_YEAR =
  /^([A-Za-z]{3,9}\.?\s+\d{1,2},?|\d{1,2}\.?\s+[A-Za-z]{3,9}\.?)\s+(\S.*?)\s+((?:19|20)\d{2})$/;

/** A day and month without their year at the start of a text (`September 9, Standing order`). */
const LEADING_DAY = /^([A-Za-z]{3,9}\.?\s+\d{1,2}|\d{1,2}\.?\s+[A-Za-z]{3,9}\.?),?\s+(\S.*)$/;

/**
 * The date a cell starts with and the rest of its text, or undefined when it starts with none;
 * `full` when the date has its year (a day and month alone is a row whose year the layout lost).
 */
function leadingDate(text: string): { date: string; rest: string; full: boolean } | undefined {
  const m = LEADING_DATE.exec(text);
  if (m?.[1] && m[2] && parseDate(m[1]) !== undefined)
    return { date: m[1], rest: m[2], full: true };
  const w = WRAPPED_YEAR.exec(text);
  const date = w ? `${w[1]} ${w[3]}` : '';
  if (w?.[2] && parseDate(date) !== undefined) return { date, rest: w[2], full: true };
  const d = LEADING_DAY.exec(text);
  return d?.[1] && d[2] && dayAndMonth(d[1]) ? { date: d[1], rest: d[2], full: false } : undefined;
}

/**
 * A date cut in two columns ("6" | "December 2024" under "Posting" | "Date"): two neighbouring
 * columns that read as a date together in every row, and neither alone. Joined again.
 */
function joinSplitDates(table: DocumentTable): DocumentTable {
  const width = table.header.length;
  for (let c = 0; c + 1 < width; c++) {
    const joined = table.rows.map((r) => `${r[c]?.text ?? ''} ${r[c + 1]?.text ?? ''}`.trim());
    const ok =
      table.rows.length > 0 &&
      table.rows.every((r, i) => {
        const a = r[c]?.text ?? '';
        const b = r[c + 1]?.text ?? '';
        return (
          a !== '' &&
          b !== '' &&
          parseDate(a) === undefined &&
          parseDate(b) === undefined &&
          parseDate(joined[i] as string) !== undefined &&
          /^\S+\s+\S+(\s+\S+)?$/.test(joined[i] as string)
        );
      });
    if (!ok) continue;
    const merge = (row: readonly DocumentCell[], text: string): DocumentCell[] => [
      ...row.slice(0, c),
      { ...(row[c] as DocumentCell), text },
      ...row.slice(c + 2),
    ];
    const head = `${table.header[c]?.text ?? ''} ${table.header[c + 1]?.text ?? ''}`.trim();
    return {
      ...table,
      header: merge(table.header, head),
      rows: table.rows.map((row, i) => merge(row, joined[i] as string)),
    };
  }
  return table;
}

/** A figure; thousands grouped by spaces ("7 241,55") only with decimals, else two figures. */
const FIGURE =
  /[-(]?(?:[A-Z]{3}\s?|[$€£¥₹]\s?)?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+[.,]\d{2}(?!\d)|\d[\d.,'’]*)(?:\s?(?:[A-Z]{3}|[$€£¥₹]))?\)?/g;

/**
 * Two narrow figure columns joined in one ("122.29 17" under "Rate Qty"): every filled cell of
 * the column holds the same number k ≥ 2 of figures and nothing else, and its header has at
 * least k words. Split into k columns, the header's last column taking its remaining words.
 */
function splitJoinedFigures(table: DocumentTable): DocumentTable {
  for (let c = 0; c < table.header.length; c++) {
    const filled = table.rows.map((r) => r[c]?.text ?? '').filter((t) => t !== '');
    if (filled.length === 0) continue;
    const parts = filled.map((t) => t.match(FIGURE) ?? []);
    const k = parts[0]?.length ?? 0;
    const words = (table.header[c]?.text ?? '').split(/\s+/).filter((w) => w !== '');
    // A header names its columns: a figure over figures is a row of values, not a header.
    if (k < 2 || words.length < k || /\d/.test(table.header[c]?.text ?? '')) continue;
    if (
      !parts.every(
        (p, i) =>
          p.length === k &&
          p.join(' ').replace(/\s+/g, '') === (filled[i] as string).replace(/\s+/g, ''),
      )
    )
      continue;
    const head = table.header[c] as DocumentCell;
    const heads = [...words.slice(0, k - 1), words.slice(k - 1).join(' ')].map((text) => ({
      ...head,
      text,
    }));
    return splitJoinedFigures({
      ...table,
      header: [...table.header.slice(0, c), ...heads, ...table.header.slice(c + 1)],
      rows: table.rows.map((row) => {
        const cell = row[c] ?? { ...head, text: '' };
        const figures = cell.text.match(FIGURE) ?? [];
        const split = Array.from({ length: k }, (_, i) => ({ ...cell, text: figures[i] ?? '' }));
        return [...row.slice(0, c), ...split, ...row.slice(c + 1)];
      }),
    });
  }
  return table;
}

/** Two amounts one space apart and nothing else (`CA$ 196.21 CA$ 9,743.16`). */
const TWO_AMOUNTS = new RegExp(`^(${AMOUNT_BODY})\\s+(${AMOUNT_BODY})$`, 'u');

/**
 * A row's two amounts in one cell beside an empty cell, where the layout set two right-aligned
 * columns a space apart (`CA$ 196.21 CA$ 9,743.16` under `Deposits`, `Balance` empty): the
 * second amount goes to the empty neighbour when that column holds amounts in other rows.
 */
function spreadJoinedAmounts(table: DocumentTable): DocumentTable {
  const amounts = (c: number) => table.rows.some((r) => isAmount(r[c]?.text ?? ''));
  let changed = false;
  const rows = table.rows.map((row) => {
    const out = [...row];
    for (let c = 0; c < out.length; c++) {
      const both = TWO_AMOUNTS.exec(out[c]?.text ?? '');
      const cell = out[c] as DocumentCell;
      const [left, right] = [out[c - 1], out[c + 1]];
      if (!both?.[1] || !both[2]) continue;
      // The empty neighbour on the side the amounts lean to: the right one, else the left.
      if (right && right.text === '' && amounts(c + 1)) {
        out[c] = { ...cell, text: both[1] };
        out[c + 1] = { ...right, text: both[2] };
      } else if (left && left.text === '' && amounts(c - 1)) {
        out[c - 1] = { ...left, text: both[1] };
        out[c] = { ...cell, text: both[2] };
      } else continue;
      changed = true;
    }
    return out;
  });
  return changed ? { ...table, rows } : table;
}

/** Column repairs for what layouts do to narrow columns: joined, or a date cut in two. */
export function repairColumns(table: DocumentTable): DocumentTable {
  return spreadJoinedAmounts(
    joinSplitDates(splitLeadingDates(splitJoinedFigures(splitLeadingNumbers(table)))),
  );
}

/**
 * A table block that holds several tables one under another (a layout parser's grouping of
 * aligned rows): it is cut before each row of labels that follows a row of values, so that the
 * document's header grid, its party blocks and its items come apart.
 */
export function splitAtHeaders(table: DocumentTable): DocumentTable[] {
  const labels = (row: readonly DocumentCell[]) => {
    const filled = row.filter((c) => c.text !== '');
    return filled.length >= 2 && filled.every((c) => isLabelCell(c.text.replace(/:$/, '')));
  };
  const out: DocumentTable[] = [];
  let header = table.header;
  let rows: DocumentCell[][] = [];
  let previous: readonly DocumentCell[] = table.header;
  for (const row of table.rows) {
    if (labels(row) && !labels(previous) && rows.length > 0) {
      out.push({ ...table, header, rows });
      header = row;
      rows = [];
    } else rows.push([...row]);
    previous = row;
  }
  out.push({ ...table, header, rows });
  return out.filter((t) => t.rows.length > 0 || out.length === 1);
}

/** The x extent of a cell of a line: from its polygon, or its character columns. */
function cellSpan(line: DocumentLine, start: number, end: number): [number, number] {
  const box = line.layout ? null : boxOf(linePolygon(line, start, end));
  return box ? [box.left, box.right] : [(line.column ?? 0) + start, (line.column ?? 0) + end];
}

/**
 * The cells of a header's second line ("Line" / "Total" over a narrow column): fewer cells than
 * the header, words only, each under one of the header's cells. Undefined when `line` is not one.
 */
function headerContinuation(
  header: DocumentLine,
  line: DocumentLine | undefined,
): { text: string; column: number }[] | undefined {
  if (!line) return undefined;
  const heads = splitCells(header.text).map((c) => cellSpan(header, c.start, c.end));
  const cells = splitCells(line.text);
  if (cells.length === 0 || cells.length >= heads.length) return undefined;
  if (cells.some((c) => /\d|:/.test(c.text) || c.text.split(/\s+/).length > 3)) return undefined;
  const out: { text: string; column: number }[] = [];
  for (const c of cells) {
    const [x0, x1] = cellSpan(line, c.start, c.end);
    const column = heads.findIndex(([a, b]) => Math.min(b, x1) - Math.max(a, x0) > 0);
    if (column < 0) return undefined;
    out.push({ text: c.text, column });
  }
  return out;
}

/**
 * True for a line of two or more cells that all read as labels ("Bill To    Ship To", an items
 * header "#    Item    Qty": `#` heads a column of row numbers).
 */
function labelRow(line: DocumentLine | undefined): boolean {
  const cells = line ? splitCells(line.text) : [];
  return (
    cells.length >= 2 && cells.every((c) => c.text === '#' || isLabelCell(c.text.replace(/:$/, '')))
  );
}

/**
 * A label's colon (`Total:`, `Date: 2022-12-04`), which ends a table's rows; a colon between
 * digits (a time, `11:12`, or OCR's reading of a decimal point) does not.
 */
const LABEL_COLON = /:(?!\d)/;

/** Totals under a table ("Subtotal", "VAT 20%", "Amount due"), which end its rows. */
const TOTALS_LINE =
  /^\s*(sub\s*-?\s*total|total|tax|vat|gst|amount due|balance due|grand total)\b/i;

/**
 * True when `line` ends the rows above it: a row of labels after a row of values starts another
 * table (the header grid of a document above its items), and a total line ends the items.
 */
function endsRows(line: DocumentLine, previous: DocumentLine | undefined): boolean {
  return TOTALS_LINE.test(line.text) || (labelRow(line) && !labelRow(previous));
}

/** A line that can be a table's row: two or more cells, no label's colon, no total, no labels. */
function rowLike(line: DocumentLine | undefined): boolean {
  return (
    !!line &&
    splitCells(line.text).length >= 2 &&
    !LABEL_COLON.test(line.text) &&
    !TOTALS_LINE.test(line.text) &&
    !labelRow(line)
  );
}

/** The space between the bottom of `a` and the top of `b`, or undefined without geometry. */
function gapBetween(a: DocumentLine, b: DocumentLine): number | undefined {
  const upper = boxOf(a.polygon);
  const lower = boxOf(b.polygon);
  return upper && lower && !a.layout && !b.layout ? lower.top - upper.bottom : undefined;
}

/**
 * True when `line` is the wrapped part of the row above it (a date's year under its day, a
 * description's end, `CA$` over its figure), not a row: it has fewer cells than that row, each
 * under one of its cells, no total's words and amount, and it sits closer to the row above than
 * half its distance to the line below (a cell's lines are set tighter than rows are spaced), or,
 * where geometry says nothing, it is one cell of words under a row of figures, a row after it.
 */
function continuesRow(
  line: DocumentLine,
  previous: DocumentLine | undefined,
  next: DocumentLine | undefined,
): boolean {
  if (!previous || !next) return false;
  if (LABEL_COLON.test(line.text) || TOTAL_LINE.test(line.text) || labelRow(line)) return false;
  const cells = splitCells(line.text);
  const over = splitCells(previous.text).map((c) => cellSpan(previous, c.start, c.end));
  if (cells.length === 0 || cells.length >= over.length) return false;
  // Words and an amount (`Order Amount CA$ 6,054.87`) are a total's line, not a wrapped cell.
  if (cells.some((c) => /\p{L}/u.test(c.text) && TRAILING_AMOUNT.test(c.text))) return false;
  // A wrapped cell stays in its column: each piece lies under one cell of the row above (as far
  // as the line's geometry tells: pieces in one box without their own have no extent to judge).
  const under = (c: { start: number; end: number }) => {
    if (cells.length > 1 && !line.segments && !line.layout) return true;
    const [x0, x1] = cellSpan(line, c.start, c.end);
    return over.filter(([a, b]) => Math.min(b, x1) > Math.max(a, x0)).length === 1;
  };
  if (!cells.every(under)) return false;
  const above = gapBetween(previous, line);
  const below = gapBetween(line, next);
  if (above !== undefined && below !== undefined) {
    // (The table's last row may wrap too: geometry needs no row after it.)
    if (above > 0.5 && above < below * 0.5) return true;
    if (above > below) return false;
  }
  if (!rowLike(next)) return false;
  // Otherwise one cell of words under a row of figures (a description's end).
  const [only] = cells;
  return (
    cells.length === 1 &&
    !!only &&
    /\p{L}/u.test(only.text) &&
    !isAmount(only.text) &&
    splitCells(previous.text).some((c) => isAmount(c.text))
  );
}

/**
 * True when `line`, one cell of words, is the first line of the row below it (a name wrapped
 * before the line that holds its figures): it sits closer to that row than to the line above
 * (touching or overlapping it, as a block's lines and a row's taller cells do, counts as closer).
 */
function leadsRow(
  line: DocumentLine,
  previous: DocumentLine | undefined,
  next: DocumentLine | undefined,
): boolean {
  if (!previous || !next) return false;
  const cells = splitCells(line.text);
  const [only] = cells;
  if (cells.length !== 1 || !only || !/\p{L}/u.test(only.text) || isAmount(only.text)) return false;
  if (LABEL_COLON.test(line.text) || TOTAL_LINE.test(line.text)) return false;
  if (splitCells(next.text).length < 2) return false;
  const above = gapBetween(previous, line);
  const below = gapBetween(line, next);
  return above !== undefined && below !== undefined && below < above * 0.5;
}

/** The index of the cell of `row` whose left edge is nearest to where `cell` starts. */
function columnUnder(row: readonly DocumentCell[], cell: DocumentCell): number {
  const left = boxOf(cell.region.polygon)?.left;
  if (left === undefined) return 0;
  let best = 0;
  let distance = Number.POSITIVE_INFINITY;
  row.forEach((c, i) => {
    const at = boxOf(c.region.polygon)?.left;
    if (at !== undefined && Math.abs(at - left) < distance)
      [best, distance] = [i, Math.abs(at - left)];
  });
  return best;
}

/** A count written in its own cell: a whole number of at most three digits. */
const COUNT_CELL = /^\d{1,3}$/;

/** A tax code a till prints after an amount (`6.40 A`, `2.50 *`). */
const TAX_FLAG = /\s+(?:[A-Z]|\*)$/;

/** A tax code a till prints in a cell of its own after the amount (`6.40    A`). */
const TAX_CODE_CELL = /^(?:[A-Z]|\*)$/;

/** A line's cells without a tax code in a cell of its own after two or more others. */
function withoutTaxCode<T extends { text: string }>(cells: readonly T[]): T[] {
  const last = cells[cells.length - 1];
  return cells.length >= 3 && last && TAX_CODE_CELL.test(last.text)
    ? cells.slice(0, -1)
    : [...cells];
}

/** An item's description: words, no label's colon, no date. */
function described(text: string | undefined): boolean {
  return (
    text !== undefined && /\p{L}/u.test(text) && !/:$/.test(text) && parseDate(text) === undefined
  );
}

/**
 * The names of a headerless item line's cells, by their shapes, or undefined when the line is no
 * item: a description (words, no label's colon, no date) and an amount last (a tax code after it
 * allowed), with a count before the description or a count or a unit price between them.
 */
function itemShape(line: DocumentLine): readonly string[] | undefined {
  const cells = withoutTaxCode(splitCells(line.text)).map((c) => c.text);
  if (cells.length < 2 || cells.length > 3 || TOTALS_LINE.test(line.text)) return undefined;
  const amount = cells[cells.length - 1] as string;
  if (!isAmount(amount.replace(TAX_FLAG, ''))) return undefined;
  if (cells.length === 2) return described(cells[0]) ? ['Description', 'Amount'] : undefined;
  const [a, b] = cells as [string, string];
  if (COUNT_CELL.test(a) && described(b)) return ['Quantity', 'Description', 'Amount'];
  if (!described(a)) return undefined;
  if (COUNT_CELL.test(b)) return ['Description', 'Quantity', 'Amount'];
  return isAmount(b) ? ['Description', 'Unit price', 'Amount'] : undefined;
}

/**
 * The cells of `line` as a row of a headerless list named `header`: of its own shape, or a
 * description and an amount alone in a list with a count or price column (`Discount  -2.70`
 * among `Coffee  5  4.10`), that column empty. Undefined when the line is no item.
 */
function itemRow(
  line: DocumentLine,
  header: readonly string[],
  cellsOf: (line: DocumentLine) => DocumentCell[],
): DocumentCell[] | undefined {
  const shape = itemShape(line);
  if (!shape) return undefined;
  const cells = withoutTaxCode(cellsOf(line));
  if (shape.join('|') === header.join('|')) return cells;
  if (shape.length !== 2 || header.length !== 3) return undefined;
  const [description, amount] = cells as [DocumentCell, DocumentCell];
  const empty: DocumentCell = { text: '', region: regionOf(line, []) };
  return header.map((name) =>
    name === 'Description' ? description : name === 'Amount' ? amount : empty,
  );
}

/**
 * A till's count or weight and unit price on the line under the item's name: `2 @ 3.20`,
 * `2 x 3.20`, `0.456 kg @ 2.99/kg`.
 */
const COUNT_AT_PRICE =
  /^\d{1,4}(?:[.,]\d+)?\s*(?:kg|g|lbs?|oz|l|ml)?\s*(?:@|[x×])\s*\S*\d[.,]\d{2}\S*$/i;

/**
 * An item written on two lines, as tills print one bought more than once: its name alone, then
 * its count at its unit price and its amount (`Latte` over `2 @ 3.20    6.40`). Its cells: the
 * name with the count after it, and the amount; undefined when the two lines are not such.
 */
function twoLineItem(
  name: DocumentLine | undefined,
  priced: DocumentLine | undefined,
  cellsOf: (line: DocumentLine) => DocumentCell[],
): DocumentCell[] | undefined {
  if (!name || !priced) return undefined;
  const title = nameCell(name, cellsOf);
  const [count, amount, ...rest] = withoutTaxCode(cellsOf(priced));
  if (!title || !count || !amount || rest.length > 0) return undefined;
  if (!COUNT_AT_PRICE.test(count.text) || !isAmount(amount.text.replace(TAX_FLAG, '')))
    return undefined;
  return [{ ...title, text: `${title.text} ${count.text}` }, amount];
}

/** The one cell of a line that is an item's name alone (words, no total), or undefined. */
function nameCell(
  line: DocumentLine,
  cellsOf: (line: DocumentLine) => DocumentCell[],
): DocumentCell | undefined {
  const [title, ...more] = cellsOf(line);
  if (!title || more.length > 0 || !described(title.text) || TOTALS_LINE.test(title.text))
    return undefined;
  return title;
}

/**
 * An item whose name wraps onto a second line before its count or weight line (`Free range
 * large eggs` over `box of twelve` over `6 x 4.19    25.14`): {@link twoLineItem} of the name's
 * two lines joined.
 */
function threeLineItem(
  lines: readonly DocumentLine[],
  at: number,
  cellsOf: (line: DocumentLine) => DocumentCell[],
): DocumentCell[] | undefined {
  const first = lines[at];
  const second = lines[at + 1];
  const head = first ? nameCell(first, cellsOf) : undefined;
  if (!head || !second || !nameCell(second, cellsOf)) return undefined;
  const joined = (line: DocumentLine) =>
    line === second ? [{ ...head, text: `${head.text} ${second.text.trim()}` }] : cellsOf(line);
  return twoLineItem(second, lines[at + 2], joined);
}

/**
 * The item rows of a list without a header that starts at `start`: two or more lines of one
 * shape ({@link itemShape}: `Coffee    3.50`, `2    Coffee    7.00`, a till receipt's lines;
 * an item of two lines, {@link twoLineItem}, among lines of a description and an amount), right
 * above a total line (`Subtotal`, `Total`), which is what tells them from labels and their
 * values. `rows` is empty when there is none; `end` is where such lines stop (the line after the
 * rows when there are), so that a start before it finds none either; `header` names the cells.
 */
function headerlessItems(
  lines: readonly DocumentLine[],
  start: number,
  cellsOf: (line: DocumentLine) => DocumentCell[],
): { rows: DocumentCell[][]; end: number; header: readonly string[] } {
  const first = lines[start];
  const two = twoLineItem(first, lines[start + 1], cellsOf);
  const header = two ? ['Description', 'Amount'] : first ? itemShape(first) : undefined;
  const rows: DocumentCell[][] = [];
  // Rows of the list's own shape: two or more make a list (a discount's line does not count).
  let own = 0;
  let end = start;
  if (header) {
    const key = header.join('|');
    while (end < lines.length) {
      const line = lines[end] as DocumentLine;
      const pair =
        key === 'Description|Amount' ? twoLineItem(line, lines[end + 1], cellsOf) : undefined;
      // A name on two lines, only after the first item (a till's header lines are no name).
      const triple =
        !pair && key === 'Description|Amount' && rows.length > 0
          ? threeLineItem(lines, end, cellsOf)
          : undefined;
      const row = pair ?? triple ?? itemRow(line, header, cellsOf);
      if (row) {
        if (pair || triple || itemShape(line)?.join('|') === key) own++;
        end += pair ? 2 : triple ? 3 : 1;
        // A name wrapped around its amount (`Extra virgin olive` over `oil cold pressed  11.14`
        // over `750ml`): its lines set tight to the item's line are the item's name.
        const at = header.indexOf('Description');
        const name = row[at];
        if (!pair && !triple && name) {
          const before = lines[end - 2];
          let text = name.text;
          if (
            before &&
            rows.length > 0 &&
            nameCell(before, cellsOf) &&
            leadsRow(before, lines[end - 3], line)
          )
            text = `${before.text.trim()} ${text}`;
          const after = lines[end];
          if (
            after &&
            nameCell(after, cellsOf) &&
            !twoLineItem(after, lines[end + 1], cellsOf) &&
            !threeLineItem(lines, end, cellsOf) &&
            continuesRow(after, line, lines[end + 1])
          ) {
            text = `${text} ${after.text.trim()}`;
            end++;
          }
          if (text !== name.text) row[at] = { ...name, text };
        }
        rows.push(row);
        continue;
      }
      // Up to three lines that are no item (the lines of a name wrapped around its amount)
      // between items, or before the total: passed over, the list goes on.
      const resumes = [1, 2, 3].find((k) => {
        const ahead = lines[end + k];
        return (
          ahead !== undefined && (TOTALS_LINE.test(ahead.text) || !!itemRow(ahead, header, cellsOf))
        );
      });
      if (rows.length === 0 || TOTALS_LINE.test(line.text) || resumes === undefined) break;
      end += resumes;
    }
  }
  const after = lines[end];
  const found = own >= 2 && after !== undefined && TOTALS_LINE.test(after.text);
  return { rows: found ? rows : [], end: Math.max(end, start + 1), header: header ?? [] };
}

/** Finds tables in consecutive lines: a header of ≥ 2 cells followed by rows of as many cells. */
export function tablesFromLines(
  lines: readonly DocumentLine[],
  fileId: string | undefined,
): DocumentTable[] {
  const tables: DocumentTable[] = [];
  const cellsOf = (line: DocumentLine): DocumentCell[] =>
    splitCells(line.text).map((c) => ({
      text: c.text,
      region: regionOf(line, linePolygon(line, c.start, c.end)),
    }));
  // Rows of table blocks are tables already: inference works on the stretches between them.
  const stretches: DocumentLine[][] = [[]];
  for (const line of lines) {
    if (line.block === 'table') stretches.push([]);
    else stretches[stretches.length - 1]?.push(line);
  }
  if (stretches.length > 1) return stretches.flatMap((s) => tablesFromLines(s, fileId));
  let i = 0;
  // Lines before this index start no headerless list: a scan from an earlier start stopped there.
  let noItemsBefore = 0;
  while (i < lines.length) {
    const headerLine = lines[i];
    if (!headerLine) break;
    let itemRows: DocumentCell[][] = [];
    let names: readonly string[] = [];
    let next = i;
    if (i >= noItemsBefore) {
      const found = headerlessItems(lines, i, cellsOf);
      itemRows = found.rows;
      names = found.header;
      next = found.end;
      if (itemRows.length === 0) noItemsBefore = found.end;
    }
    if (itemRows.length > 0) {
      const [first] = itemRows;
      tables.push({
        page: headerLine.page,
        ...(fileId === undefined ? {} : { fileId }),
        // Named for what the rows hold; where the first row's cells are.
        header: names.map((text, c) => ({
          text,
          region: first?.[c]?.region ?? regionOf(headerLine, []),
        })),
        rows: itemRows,
      });
      i = next;
      continue;
    }
    const header = cellsOf(headerLine);
    const headerIsText = header.every((c) => !/\d/.test(c.text) || /^[A-Za-z]/.test(c.text));
    // Dated rows without a header (a statement's table going on over a page): the first row
    // stands for the header; whoever reads the table sees that it is data.
    const datedRows =
      header.length >= 3 &&
      [headerLine, lines[i + 1]].every((l) => {
        const cells = l ? splitCells(l.text) : [];
        return cells.length === header.length && isDateText(cells[0]?.text ?? '');
      });
    if (
      header.length < 2 ||
      !(headerIsText || datedRows) ||
      header.some((c) => c.text.includes(':'))
    ) {
      i++;
      continue;
    }
    // A header set on two lines: its second line joins the first and leaves the rows.
    const continuation = headerContinuation(headerLine, lines[i + 1]);
    // A label/value pair ("Cashier    Peter") above the real header: the header is the row of
    // labels right above the first row of values.
    // (That header may be set on two lines too: `Item    Line` over `Amount`.)
    const labels = lines[i + 1];
    const values = labels && headerContinuation(labels, lines[i + 2]) ? lines[i + 3] : lines[i + 2];
    if (
      !continuation &&
      labelRow(lines[i + 1]) &&
      values &&
      !labelRow(values) &&
      splitCells(values.text).length >= 2
    ) {
      i++;
      continue;
    }
    // A line of one cell between a header and a row of as many cells as it (the end of a row's
    // description carried over to the next page, under the repeated header) is no row of it.
    const carried =
      !continuation &&
      splitCells(lines[i + 1]?.text ?? '').length === 1 &&
      !TOTALS_LINE.test(lines[i + 1]?.text ?? '') &&
      rowLike(lines[i + 2]);
    const first =
      (continuation && splitCells(lines[i + 2]?.text ?? '').length >= 2) || carried ? i + 2 : i + 1;
    const window = [headerLine, ...lines.slice(first)];
    const joinHeader = (table: DocumentTable): DocumentTable => {
      if (first === i + 1 || !continuation) return table;
      const merged = [...table.header];
      for (const c of continuation) {
        const cell = merged[c.column];
        if (cell) merged[c.column] = { ...cell, text: `${cell.text} ${c.text}` };
      }
      return { ...table, header: merged };
    };
    const rows: DocumentCell[][] = [];
    let j = 1;
    while (j < window.length) {
      const line = window[j];
      if (!line) break;
      const cells = cellsOf(line);
      // A line of one cell between two rows: more text of the row above, in the column it
      // starts under (a transaction's reference under its description).
      const next = window[j + 1];
      const previous = rows[rows.length - 1];
      if (
        cells.length === 1 &&
        previous &&
        next &&
        cellsOf(next).length === header.length &&
        !endsRows(line, window[j - 1]) &&
        !endsRows(next, line)
      ) {
        // (Unless it is set tight over the row below: the first line of that row's cell.)
        if (leadsRow(line, window[j - 1], next)) {
          const below = cellsOf(next);
          const c = columnUnder(below, cells[0] as DocumentCell);
          const under = below[c];
          if (under && under.text !== '') {
            below[c] = { ...under, text: `${cells[0]?.text ?? ''} ${under.text}` };
            rows.push(below);
            j += 2;
            continue;
          }
        }
        const c = columnUnder(previous, cells[0] as DocumentCell);
        const above = previous[c];
        if (above && above.text !== '' && !isAmount(cells[0]?.text ?? '')) {
          previous[c] = { ...above, text: `${above.text} ${cells[0]?.text ?? ''}` };
          j++;
          continue;
        }
      }
      if (cells.length !== header.length || (j > 1 && endsRows(line, window[j - 1]))) break;
      rows.push(cells);
      j++;
    }
    // Merged or split cells (a layout parser's runs) break the equal-count rule: align by x.
    // A cell's wrapped line goes on the row above; a balance carried forward is a row.
    let k = 1;
    const joined = new Set<number>();
    const leads = new Set<number>();
    while (k < window.length) {
      const line = window[k];
      if (line && k > 1 && continuesRow(line, window[k - 1], window[k + 1])) {
        joined.add(k);
        k++;
        continue;
      }
      if (line && leadsRow(line, window[k - 1], window[k + 1])) {
        leads.add(k);
        k++;
        continue;
      }
      if (
        !line ||
        splitCells(line.text).length < 2 ||
        LABEL_COLON.test(line.text) ||
        (TOTAL_LINE.test(line.text) && !FORWARD_LINE.test(line.text)) ||
        (k > 1 && labelRow(line) && !labelRow(window[k - 1]))
      )
        break;
      k++;
    }
    // A name's first line leads a row only when the row follows.
    while (leads.has(k - 1)) leads.delete(--k);
    const consumed = first - i - 1;
    const aligned = k > j ? alignedTable(window.slice(0, k), fileId, joined, leads) : null;
    if (aligned) {
      tables.push(joinHeader(aligned));
      i += k + consumed;
    } else if (rows.length > 0) {
      tables.push(
        joinHeader({
          page: headerLine.page,
          ...(fileId === undefined ? {} : { fileId }),
          header,
          rows,
        }),
      );
      i += j + consumed;
    } else {
      i++;
    }
  }
  return tables.map(repairColumns);
}

/** A table built from a table block's cell children. */
export function tableFromCells(
  cells: readonly Block[],
  region: Omit<DocumentRegion, 'polygon' | 'ocrConfidence'>,
): DocumentTable | null {
  const grid: DocumentCell[][] = [];
  for (const cell of cells) {
    const details = cell.details as { rowIndex?: number; columnIndex?: number };
    const row = details.rowIndex ?? 0;
    const column = details.columnIndex ?? 0;
    const rowCells = grid[row] ?? [];
    grid[row] = rowCells;
    rowCells[column] = {
      text: plain(cell.content).trim(),
      region: {
        ...region,
        polygon: cell.polygon,
        ocrConfidence: cell.metadata.avgOcrConfidence ?? null,
      },
    };
  }
  const dense = grid.filter((r) => r !== undefined);
  const [header, ...rows] = dense;
  if (!header || rows.length === 0) return null;
  // As wide as its widest row: a sheet's cells are sparse, and a total's value may sit in a
  // column beyond the header's last (`PO Total` under the amounts, its figure one column right).
  const width = dense.reduce((most, row) => Math.max(most, row.length), 0);
  const fill = (row: DocumentCell[]): DocumentCell[] =>
    Array.from(
      { length: width },
      (_, k) => row[k] ?? { text: '', region: { ...region, polygon: [], ocrConfidence: null } },
    );
  return {
    page: region.page,
    ...(region.fileId === undefined ? {} : { fileId: region.fileId }),
    header: fill(header),
    rows: rows.map(fill),
  };
}

/** A table from markdown table content (`| a | b |` lines) when the block has no cell children. */
export function tableFromMarkdown(content: string, base: DocumentRegion): DocumentTable | null {
  const rows = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !/^\|[\s:|-]+\|$/.test(l))
    .map((l) =>
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => ({ text: plain(c.trim()), region: base })),
    );
  const [header, ...body] = rows;
  if (!header || body.length === 0) return null;
  return {
    page: base.page,
    ...(base.fileId === undefined ? {} : { fileId: base.fileId }),
    header,
    rows: body,
  };
}
