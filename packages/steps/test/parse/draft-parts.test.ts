/**
 * A reader's draft crosses to the caller in parts of bounded size (decision 0032): a sheet of
 * 600,000 cells in one message existed three times at once, across two processes.
 */
import { serialize } from 'node:v8';
import type { FileType } from '@docflow/engine';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeFormatReaders,
  type FormatJob,
  type FormatReply,
  idleFormatReaders,
} from '../../src/parse/contained-format.ts';
import { type Child, childEntry, startChild } from '../../src/parse/contained-process.ts';
import type { DraftDocument } from '../../src/parse/draft-document.ts';
import {
  DraftAssembler,
  type DraftPart,
  draftHead,
  draftItems,
  draftParts,
  PART_BUDGET,
} from '../../src/parse/draft-parts.ts';
import { DEFAULT_PARSE_LIMITS, type FormatContext } from '../../src/parse/format-context.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { resolveParseConfig } from '../../src/parse/resolve-parse-config.ts';
import { runFormat } from '../../src/parse/run-format.ts';
import { makeLargeXlsx } from '../fixtures/parse/make-office.ts';

function context(fileName: string): FormatContext {
  const resolved = resolveParseConfig({});
  if (!resolved.ok) throw new Error(resolved.issues.join('; '));
  return {
    config: resolved.config,
    limits: DEFAULT_PARSE_LIMITS,
    signal: new AbortController().signal,
    mimeType: 'application/octet-stream',
    fileName,
    pdfWorkers: 'never',
  };
}

/** 8,000 rows of 6 cells: about 4 MB of draft, so several parts. */
const xlsx = await makeLargeXlsx(8_000);

/** An HTML table of 20,000 rows (its cells are child blocks) between two paragraphs. */
const html = new TextEncoder().encode(
  `<html><body><p>Before</p><table>${Array.from(
    { length: 20_000 },
    (_, i) => `<tr><td>Item ${i}</td><td>${(i * 1.5).toFixed(2)}</td></tr>`,
  ).join('')}</table><p>After</p></body></html>`,
);

const sizeOf = (message: unknown) => serialize(message).length;

describe('draftParts and DraftAssembler', () => {
  it.each([
    ['EXCEL', 'large.xlsx', xlsx],
    ['HTML', 'table.html', html],
  ] as const)(
    'split a large %s table into parts of bounded size and put it back together exactly',
    async (type, name, bytes) => {
      const draft = await runFormat(type, bytes, context(name));
      const expected = structuredClone(draft);
      const items = draftItems(draft);
      const assembler = new DraftAssembler();
      const sizes: number[] = [];
      // Counted as the caller counts them (contained-format.ts).
      let carried = 0;
      for (const part of draftParts(draft)) {
        sizes.push(sizeOf(part));
        if (part.part === 'cells') carried += part.contents.length;
        else if (part.part !== 'unit') carried += part.blocks.length;
        assembler.add(structuredClone(part));
      }
      expect(carried).toBe(items);
      expect(items).toBeGreaterThan(1000);
      const head = draftHead(draft);
      expect(assembler.finish(structuredClone(head))).toEqual(expected);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      // A table's markdown, which is its content, crosses once.
      const repeated = expected.units
        .flatMap((unit) => unit.blocks)
        .filter((block) => block.markdown !== '' && block.markdown === block.content)
        .reduce((sum, block) => sum + block.markdown.length, 0);
      expect(repeated).toBeGreaterThan(100_000);
      expect(total).toBeLessThan(sizeOf(expected) - repeated * 0.9);
      // Several parts, none near the whole: the draft never crosses in one piece.
      expect(total).toBeGreaterThan(3 * PART_BUDGET);
      expect(sizes.length).toBeGreaterThan(3);
      expect(Math.max(...sizes)).toBeLessThan(2 * PART_BUDGET);
      // What the parts carried is released from the reader's draft as they go.
      expect(draft.units[0]?.blocks.every((block) => block === undefined)).toBe(true);
    },
  );

  it('refuses parts out of order', () => {
    const assembler = new DraftAssembler();
    expect(() => assembler.add({ part: 'cells', contents: ['a'], details: [] })).toThrow(
      /without their block/,
    );
    expect(() => assembler.add({ part: 'blocks', blocks: [] })).toThrow(/before their unit/);
  });
});

describe("a format reader's answer", { timeout: 60_000 }, () => {
  const start = childEntry(
    new URL('../../src/parse/contained-format.ts', import.meta.url).href,
    'format-worker',
  );
  let child: Child | undefined;
  afterAll(() => {
    child?.process.kill();
  });

  /** Every message the reader process sends for one document, up to its final reply. */
  async function messages(type: FileType, name: string, bytes: Uint8Array) {
    if (!start) throw new Error('no reader entry');
    child ??= startChild(start, 512);
    const { process: reader } = child;
    const c = context(name);
    const job: FormatJob = {
      type,
      bytes,
      config: c.config,
      limits: c.limits,
      mimeType: c.mimeType,
      fileName: name,
    };
    return new Promise<(DraftPart | FormatReply)[]>((resolve, reject) => {
      const seen: (DraftPart | FormatReply)[] = [];
      const onMessage = (message: DraftPart | FormatReply) => {
        seen.push(message);
        if ('part' in message) return;
        reader.off('message', onMessage);
        resolve(seen);
      };
      reader.on('message', onMessage);
      reader.once('exit', (code) => reject(new Error(`reader exited (${code}): ${child?.stderr}`)));
      reader.send(job as never);
    });
  }

  it('comes in parts of bounded size that make up the draft read in this thread', async () => {
    const seen = await messages('EXCEL', 'large.xlsx', xlsx);
    const sizes = seen.map(sizeOf);
    expect(seen.length).toBeGreaterThan(4);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(3 * PART_BUDGET);
    expect(Math.max(...sizes)).toBeLessThan(2 * PART_BUDGET);
    const assembler = new DraftAssembler();
    for (const message of seen.slice(0, -1)) assembler.add(message as DraftPart);
    const last = seen[seen.length - 1] as FormatReply;
    if (!last.ok) throw new Error(last.message);
    const inThread: DraftDocument = await runFormat('EXCEL', xlsx, context('large.xlsx'));
    expect(assembler.finish(last.draft)).toEqual(inThread);
  });
});

describe('a reader that answered a large draft', { timeout: 60_000 }, () => {
  afterAll(() => closeFormatReaders());

  it('is ended instead of kept warm, and the next document gets a new one', async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const small = () => parseDocument(encode('name,total\nINV-1,10.00\n'), { fileName: 'a.csv' });
    await closeFormatReaders();
    expect((await small()).ok).toBe(true);
    expect(idleFormatReaders()).toBe(1);
    // 80,000 rows of 2 cells: 160,000 cells (past RETIRE_AFTER_ITEMS).
    const rows = Array.from({ length: 80_000 }, (_, i) => `INV-${i},${i * 3}.50`).join('\n');
    const large = await parseDocument(encode(`id,total\n${rows}\n`), { fileName: 'large.csv' });
    if (!large.ok) throw new Error(large.failureMessage);
    const cells = large.output.chunks.flatMap((chunk) => chunk.blocks);
    expect(cells.filter((block) => block.type === 'table_cell')).toHaveLength(160_002);
    expect(cells[cells.length - 1]?.content).toBe('239997.50');
    expect(idleFormatReaders()).toBe(0);
    expect((await small()).ok).toBe(true);
    expect(idleFormatReaders()).toBe(1);
  });

  it('is kept after a workbook of many small sheets (many small parts)', async () => {
    const workbook = new ExcelJS.Workbook();
    for (let i = 1; i <= 20; i++) workbook.addWorksheet(`Sheet ${i}`).addRow(['Total', i]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    await closeFormatReaders();
    const result = await parseDocument(bytes, { fileName: 'sheets.xlsx' });
    expect(result.ok && result.output.chunks).toHaveLength(20);
    expect(idleFormatReaders()).toBe(1);
  });
});
