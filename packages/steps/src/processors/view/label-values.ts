/**
 * Label/value detection on lines: "Label: value" per cell (cut before inner labels a layout
 * parser joined onto one line), a two-cell "Label   value" line, and a label whose value is on
 * the next line ("Bill to:").
 */
import type { DocumentField, DocumentLine, DocumentRegion } from './document-view.ts';
import { splitCells } from './table-inference.ts';
import { linePolygon, regionOf } from './view-geometry.ts';

const INNER_LABEL = / (?=[A-Z][A-Za-z.#/&'-]*(?: [a-z#][A-Za-z.#/&'-]*){0,3}: )/g;

const LABEL_SHAPE = /^[\p{L}][\p{L}\p{N} .#/&()'-]{0,48}$/u;

/** Label/value pairs on a line: "Label: value" per cell, or a two-cell "Label   value" line. */
function linePairs(
  text: string,
): { label: string; value: string; valueStart: number; valueEnd: number }[] {
  const pairs: { label: string; value: string; valueStart: number; valueEnd: number }[] = [];
  const cells = splitCells(text);
  // A layout parser may join "Invoice #: 1    Date: 2" with one space: cut before inner labels.
  const pieces = cells.flatMap((cell) => {
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
  const [first, second] = cells;
  if (pairs.length === 0 && cells.length === 2 && first && second && LABEL_SHAPE.test(first.text)) {
    if (/\d/.test(second.text) || second.text.length > 0) {
      pairs.push({
        label: first.text,
        value: second.text,
        valueStart: second.start,
        valueEnd: second.end,
      });
    }
  }
  return pairs;
}

/** The fields of a page's lines. */
export function lineFields(lines: readonly DocumentLine[]): DocumentField[] {
  const fields: DocumentField[] = [];
  lines.forEach((line, index) => {
    for (const pair of linePairs(line.text)) {
      let value = pair.value;
      let region: DocumentRegion = regionOf(
        line,
        linePolygon(line, pair.valueStart, pair.valueEnd),
      );
      if (value === '') {
        // "Bill to:" with the value on the next line.
        const next = lines[index + 1];
        if (!next || linePairs(next.text).length > 0) continue;
        value = splitCells(next.text)[0]?.text ?? next.text.trim();
        region = regionOf(next);
      }
      fields.push({ label: pair.label, value, source: 'line', region, lineIndex: index });
    }
  });
  return fields;
}
