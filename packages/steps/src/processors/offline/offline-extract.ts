/**
 * Offline extraction: schema properties meet document labels. Each leaf property (its name,
 * title and description, through the synonyms of text-tokens.ts) is matched against the labels
 * of key-value blocks and "Label: value" lines; pairs are assigned greedily by match strength so
 * that one label feeds one property ("Due date" goes to `due_date`, "Date" to `invoice_date`).
 * Arrays of objects come from the table whose header best matches the item properties, with its
 * continuation on later pages. Values are coerced by schema kind, and every value carries its
 * citation (page, polygon, the text it came from) and the label-match strength as confidence.
 */

import type { JsonSchema } from '../processor-config.ts';
import type { Citation, ExtractOutput, ExtractValue, FieldMetadata } from '../provider.ts';
import { readSchema, type SchemaNode } from '../schema-node.ts';
import { dice, labelTokens, tokens } from '../text-tokens.ts';
import {
  matchEnum,
  parseBoolean,
  parseCurrency,
  parseCurrencyCode,
  parseDate,
  parseNumber,
} from '../value-coercion.ts';
import type {
  DocumentField,
  DocumentPage,
  DocumentRegion,
  DocumentTable,
  DocumentView,
} from '../view/document-view.ts';

/** Matches weaker than this are not used. */
const MIN_LABEL_SCORE = 0.5;

interface Candidate {
  readonly field: DocumentField;
  readonly tokens: readonly string[];
  /** Scores of conventions (letterhead, salutation) are discounted below real labels. */
  readonly weight: number;
}

interface Leaf {
  readonly path: string;
  readonly node: SchemaNode;
  readonly nameTokens: readonly string[];
  readonly descriptionTokens: readonly string[];
}

interface Context {
  readonly candidates: readonly Candidate[];
  readonly pages: readonly DocumentPage[];
  readonly currency: string | null;
  readonly metadata: Record<string, FieldMetadata>;
}

function regionCitation(region: DocumentRegion, referenceText: string | null): Citation {
  // A literal rather than a conditional spread: this runs for every cell of every table.
  return {
    fileId: region.fileId,
    page: { number: region.page, width: region.pageWidth, height: region.pageHeight },
    referenceText,
    polygon: region.polygon,
  };
}

function fieldMetadata(
  region: DocumentRegion,
  referenceText: string,
  confidence: number,
  reasoning?: string,
): FieldMetadata {
  const metadata: FieldMetadata = {
    ocrConfidence: region.ocrConfidence,
    logprobsConfidence: null,
    confidence: Math.round(confidence * 1000) / 1000,
    citations: [regionCitation(region, referenceText)],
  };
  return reasoning
    ? { ...metadata, insights: [{ type: 'reasoning', content: reasoning }] }
    : metadata;
}

/** Conventions that carry a value without a label: letterhead, salutation, signature, checkboxes. */
function conventionalFields(page: DocumentPage, isFirst: boolean): DocumentField[] {
  const out: DocumentField[] = [];
  const make = (label: string, value: string, index: number): DocumentField | undefined => {
    const line = page.lines[index];
    if (!line) return undefined;
    return { label, value, source: 'line', region: line, lineIndex: index };
  };
  page.lines.forEach((line, i) => {
    const dear = /^dear\s+(.+?)[,:]?\s*$/i.exec(line.text);
    if (dear?.[1]) {
      const f = make('Recipient name', dear[1], i);
      if (f) out.push(f);
    }
    if (
      /^(sincerely|yours (?:sincerely|faithfully|truly)|(?:kind |best )?regards|respectfully),?\s*$/i.test(
        line.text,
      )
    ) {
      const next = page.lines[i + 1];
      if (next && next.text.length < 60) {
        const f = make('Sender name', next.text.trim(), i + 1);
        if (f) out.push(f);
      }
    }
    const box = /^\s*\[([xX✓✔ ])\]\s*(.+)$/.exec(line.text);
    if (box?.[2]) {
      const f = make(box[2], box[1] === ' ' ? 'no' : 'yes', i);
      if (f) out.push(f);
    }
  });
  if (isFirst) {
    const first = page.lines[0];
    if (first && !first.text.includes(':') && first.text.length < 60) {
      const f = make('Issuer name', first.text.trim(), 0);
      if (f) out.push(f);
    }
    const dateLine = page.lines.findIndex(
      (l) => !l.text.includes(':') && parseDate(l.text) !== undefined && l.text.length < 40,
    );
    const dateText = page.lines[dateLine]?.text;
    if (dateText) {
      const f = make('Date', dateText.trim(), dateLine);
      if (f) out.push(f);
    }
  }
  return out;
}

function collectLeaves(
  node: SchemaNode,
  path: string,
  parentTokens: readonly string[],
  leaves: Leaf[],
): void {
  for (const prop of node.properties ?? []) {
    const p = path ? `${path}.${prop.name}` : prop.name;
    const own = labelTokens(prop.node.title ?? prop.name);
    const nameTokens = [...new Set([...parentTokens, ...labelTokens(prop.name), ...own])];
    if (prop.node.kind === 'object') {
      collectLeaves(prop.node, p, labelTokens(prop.name), leaves);
      continue;
    }
    if (prop.node.kind === 'array') continue;
    leaves.push({
      path: p,
      node: prop.node,
      nameTokens,
      descriptionTokens: tokens(prop.node.description ?? ''),
    });
  }
}

function labelScore(leaf: Leaf, candidate: Candidate): number {
  const byName = dice(leaf.nameTokens, candidate.tokens);
  let byDescription = 0;
  if (leaf.descriptionTokens.length > 0 && candidate.tokens.length > 0) {
    const description = new Set(leaf.descriptionTokens);
    const covered =
      candidate.tokens.filter((t) => description.has(t)).length / candidate.tokens.length;
    byDescription = covered === 1 ? 0.6 + 0.05 * Math.min(candidate.tokens.length, 3) : 0;
  }
  return Math.max(byName, byDescription) * candidate.weight;
}

/** The typed value of `text` for a schema node; undefined when the text is not of that kind. */
function coerce(text: string, node: SchemaNode, currency: string | null): ExtractValue | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  switch (node.kind) {
    case 'date':
      return parseDate(t);
    case 'number':
      return parseNumber(t);
    case 'integer': {
      const n = parseNumber(t);
      return n === undefined ? undefined : Math.round(n);
    }
    case 'currency': {
      const c = parseCurrency(t, currency);
      return c ? { amount: c.amount, iso_4217: c.iso_4217 } : undefined;
    }
    case 'boolean':
      return parseBoolean(t);
    case 'enum':
      return matchEnum(t, node.enumValues ?? []);
    case 'string':
    case 'unknown':
      return t;
    default:
      return undefined;
  }
}

function setPath(target: Record<string, ExtractValue>, path: string, value: ExtractValue): void {
  const parts = path.split('.');
  let obj: Record<string, ExtractValue> = target;
  for (const part of parts.slice(0, -1)) {
    const next = obj[part];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Record<string, ExtractValue> = {};
      obj[part] = created;
      obj = created;
    } else {
      obj = next as Record<string, ExtractValue>;
    }
  }
  obj[parts[parts.length - 1] ?? path] = value;
}

/** Scalar leaves by greedy assignment of (leaf, label) pairs, strongest first. */
function extractLeaves(
  leaves: readonly Leaf[],
  ctx: Context,
  value: Record<string, ExtractValue>,
): void {
  const pairs: {
    leaf: Leaf;
    candidate: Candidate;
    score: number;
    order: number;
    coerced: ExtractValue;
  }[] = [];
  leaves.forEach((leaf) => {
    ctx.candidates.forEach((candidate, order) => {
      const score = labelScore(leaf, candidate);
      if (score < MIN_LABEL_SCORE) return;
      const coerced = coerce(candidate.field.value, leaf.node, ctx.currency);
      if (coerced === undefined) return;
      pairs.push({ leaf, candidate, score, order, coerced });
    });
  });
  pairs.sort((a, b) => b.score - a.score || a.order - b.order);
  const usedLeaves = new Set<string>();
  // One label feeds one property, even when it repeats on continuation pages.
  const usedLabels = new Set<string>();
  for (const pair of pairs) {
    const label = pair.candidate.tokens.join(' ');
    if (usedLeaves.has(pair.leaf.path) || usedLabels.has(label)) continue;
    usedLeaves.add(pair.leaf.path);
    usedLabels.add(label);
    setPath(value, pair.leaf.path, pair.coerced);
    const f = pair.candidate.field;
    ctx.metadata[pair.leaf.path] = fieldMetadata(
      f.region,
      `${f.label}: ${f.value}`,
      pair.score,
      `Matched label "${f.label}" on page ${f.region.page} (match ${pair.score.toFixed(2)}).`,
    );
  }
  for (const leaf of leaves) {
    if (usedLeaves.has(leaf.path)) continue;
    if (leaf.node.kind === 'enum') {
      const found = findEnumMention(leaf.node, ctx.pages);
      if (found) {
        setPath(value, leaf.path, found.value);
        ctx.metadata[leaf.path] = fieldMetadata(
          found.region,
          found.text,
          0.5,
          `The document mentions "${found.value}" and no other member.`,
        );
        continue;
      }
    }
    setPath(value, leaf.path, null);
  }
}

function findEnumMention(
  node: SchemaNode,
  pages: readonly DocumentPage[],
): { value: string | number | boolean; region: DocumentRegion; text: string } | undefined {
  const values = (node.enumValues ?? []).filter((v) => typeof v === 'string' && v.length > 3);
  let found: { value: string | number | boolean; region: DocumentRegion; text: string } | undefined;
  const seen = new Set<string | number | boolean>();
  for (const page of pages) {
    for (const line of page.lines) {
      const v = matchEnum(line.text, values);
      if (v === undefined) continue;
      seen.add(v);
      found ??= { value: v, region: line, text: line.text };
    }
  }
  return seen.size === 1 ? found : undefined;
}

const TOTAL_ROW = /^(sub\s*-?\s*total|total|tax|vat|balance|amount due|grand total)\b/i;

function headerKey(table: DocumentTable): string {
  return table.header.map((c) => c.text.toLowerCase()).join('|');
}

/** Maps item properties to table columns; returns the mapping and its strength. */
function mapColumns(
  items: SchemaNode,
  table: DocumentTable,
): { columns: Map<string, number>; score: number } {
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
      if (score >= MIN_LABEL_SCORE) pairs.push({ name: prop.name, column, score });
    });
  }
  pairs.sort((a, b) => b.score - a.score);
  const columns = new Map<string, number>();
  const usedColumns = new Set<number>();
  let total = 0;
  for (const pair of pairs) {
    if (columns.has(pair.name) || usedColumns.has(pair.column)) continue;
    columns.set(pair.name, pair.column);
    usedColumns.add(pair.column);
    total += pair.score;
  }
  const needed = Math.min(2, props.length);
  if (columns.size < needed) return { columns, score: 0 };
  return { columns, score: total / Math.max(props.length, 1) };
}

function extractArray(
  path: string,
  node: SchemaNode,
  ctx: Context,
  tables: readonly DocumentTable[],
  usedTables: Set<DocumentTable>,
): ExtractValue[] {
  const items = node.items;
  if (!items) return [];
  if (items.kind !== 'object') return [];
  let best: { table: DocumentTable; columns: Map<string, number>; score: number } | undefined;
  for (const table of tables) {
    if (usedTables.has(table)) continue;
    const { columns, score } = mapColumns(items, table);
    if (score > 0 && (!best || score > best.score)) best = { table, columns, score };
  }
  if (!best) return [];
  const chosen = best;
  const key = headerKey(chosen.table);
  const start = tables.indexOf(chosen.table);
  const parts = tables.filter((t, i) => i >= start && !usedTables.has(t) && headerKey(t) === key);
  for (const t of parts) usedTables.add(t);
  const headerCell = chosen.table.header[0];
  if (headerCell) {
    ctx.metadata[path] = fieldMetadata(
      headerCell.region,
      chosen.table.header.map((c) => c.text).join(' | '),
      chosen.score,
      `Table with columns ${chosen.table.header.map((c) => c.text).join(', ')} on page ${chosen.table.page}.`,
    );
  }
  const out: ExtractValue[] = [];
  for (const table of parts) {
    for (const row of table.rows) {
      if (TOTAL_ROW.test(row[0]?.text ?? '')) continue;
      const itemPath = `${path}[${out.length}]`;
      const item: Record<string, ExtractValue> = {};
      let filled = 0;
      for (const prop of items.properties ?? []) {
        const column = chosen.columns.get(prop.name);
        const cell = column === undefined ? undefined : row[column];
        const v = cell ? coerce(cell.text, prop.node, ctx.currency) : undefined;
        if (v === undefined || !cell) {
          item[prop.name] = prop.node.kind === 'array' ? [] : null;
          continue;
        }
        item[prop.name] = v;
        filled++;
        ctx.metadata[`${itemPath}.${prop.name}`] = fieldMetadata(
          cell.region,
          cell.text,
          chosen.score,
        );
      }
      if (filled === 0) continue;
      const first = row[0];
      if (first) {
        ctx.metadata[itemPath] = fieldMetadata(
          first.region,
          row.map((c) => c.text).join(' | '),
          chosen.score,
        );
      }
      out.push(item);
    }
  }
  return out;
}

function extractArrays(
  node: SchemaNode,
  path: string,
  ctx: Context,
  value: Record<string, ExtractValue>,
  tables: readonly DocumentTable[],
  usedTables: Set<DocumentTable>,
): void {
  for (const prop of node.properties ?? []) {
    const p = path ? `${path}.${prop.name}` : prop.name;
    if (prop.node.kind === 'array')
      setPath(value, p, extractArray(p, prop.node, ctx, tables, usedTables));
    else if (prop.node.kind === 'object')
      extractArrays(prop.node, p, ctx, value, tables, usedTables);
  }
}

function documentCurrency(pages: readonly DocumentPage[]): string | null {
  const counts = new Map<string, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const code = parseCurrencyCode(line.text);
      if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  }
  let best: string | null = null;
  let n = 0;
  for (const [code, c] of counts) if (c > n) [best, n] = [code, c];
  return best;
}

/**
 * Extracts `schema` from a document view. The value follows the schema's shape (missing scalars
 * are null, missing arrays empty); the caller conforms it to the schema with ajv.
 */
export function offlineExtract(doc: DocumentView, schema: JsonSchema): ExtractOutput {
  const root = readSchema(schema);
  const candidates: Candidate[] = [];
  doc.pages.forEach((page, i) => {
    for (const field of page.fields)
      candidates.push({ field, tokens: labelTokens(field.label), weight: 1 });
    for (const field of conventionalFields(page, i === 0 || page.number === 1)) {
      candidates.push({ field, tokens: labelTokens(field.label), weight: 0.6 });
    }
  });
  const ctx: Context = {
    candidates,
    pages: doc.pages,
    currency: documentCurrency(doc.pages),
    metadata: {},
  };
  const value: Record<string, ExtractValue> = {};
  const leaves: Leaf[] = [];
  collectLeaves(root, '', [], leaves);
  extractLeaves(leaves, ctx, value);
  const tables = doc.pages.flatMap((p) => p.tables);
  extractArrays(root, '', ctx, value, tables, new Set());
  // Keep the schema's property order.
  const ordered: Record<string, ExtractValue> = {};
  for (const prop of root.properties ?? []) ordered[prop.name] = value[prop.name] ?? null;
  return { value: ordered, metadata: ctx.metadata };
}
