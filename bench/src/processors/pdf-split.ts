/**
 * The SPLIT step's PDF path and FILE_CONVERSION's PDF writing, with pdf-lib 1.17.1 (the last
 * release, 2021) against @cantoo/pdf-lib (the maintained fork docflow uses), in interleaved
 * rounds (the order alternates each round). Reports each library's median and the ratio.
 *
 * - split: what `split-step.ts` does per proposed split (load the source, copy the split's
 *   pages into a new document, save), for five 3-page splits of each PDF: the PDF manuals Debian
 *   packages ship (whichever are installed) and a 40-page PDF written by the library under test.
 * - write: what `file-conversion-step.ts` does for a text file: 40 pages of Courier text, saved.
 *
 * Run: cd bench && npx tsx src/processors/pdf-split.ts [--rounds 7] [files…]
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import * as cantoo from '@cantoo/pdf-lib';
import * as legacy from 'pdf-lib';
import { machineLine } from '../harness.ts';

const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '7' } },
  allowPositionals: true,
});
const ROUNDS = Number(values.rounds);

/** The fork's API; the part docflow uses is the same in pdf-lib (typed apart, not at run time). */
type PdfLib = typeof cantoo;
const LIBS: readonly { name: string; lib: PdfLib }[] = [
  { name: 'pdf-lib 1.17.1', lib: legacy as unknown as PdfLib },
  { name: '@cantoo/pdf-lib 2.11.1', lib: cantoo },
];

const DEBIAN_PDFS = [
  '/usr/share/doc/glpk-doc/glpk.pdf',
  '/usr/share/doc/asymptote/asymptote.pdf',
  '/usr/share/R/doc/manual/R-intro.pdf',
  '/usr/share/R/doc/manual/R-exts.pdf',
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
];

const LINE =
  'Invoice 2026-0042  ACME Components GmbH  Widget, steel, 40 mm   12 x 3.50 EUR   42.00';

/** FILE_CONVERSION's text layout (`textToPdf`): Courier 9 pt, 60 lines a page, the font set once a page. */
async function writeText(lib: PdfLib, pages: number): Promise<Uint8Array> {
  const doc = await lib.PDFDocument.create();
  const font = await doc.embedFont(lib.StandardFonts.Courier);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    page.setFont(font);
    for (let l = 0; l < 60; l++) {
      page.drawText(`${p + 1}.${l + 1} ${LINE}`, { x: 36, y: 800 - l * 12, size: 9 });
    }
  }
  return doc.save();
}

/** The SPLIT step's PDF path for one split: load, copy pages, save. */
async function splitPages(
  lib: PdfLib,
  bytes: Uint8Array,
  start: number,
  end: number,
): Promise<Uint8Array> {
  const source = await lib.PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
  });
  const child = await lib.PDFDocument.create();
  const indexes: number[] = [];
  for (let p = start; p <= Math.min(end, source.getPageCount()); p++) indexes.push(p - 1);
  const copied = await child.copyPages(source, indexes);
  for (const page of copied) child.addPage(page);
  return child.save();
}

/** Five 3-page splits spread over the document, as a packet's parts would be. */
async function splitDocument(lib: PdfLib, bytes: Uint8Array, pageCount: number): Promise<number> {
  let size = 0;
  for (let i = 0; i < 5; i++) {
    const start = 1 + Math.floor((i * Math.max(pageCount - 3, 0)) / 4);
    size += (await splitPages(lib, bytes, start, start + 2)).length;
  }
  return size;
}

interface Subject {
  readonly name: string;
  /** Runs the case with a library; returns output bytes (to compare the two). */
  run(lib: PdfLib): Promise<number>;
}

const files = [...DEBIAN_PDFS.filter((f) => existsSync(f)), ...positionals];
const subjects: Subject[] = [];
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const pageCount = (
    await cantoo.PDFDocument.load(bytes, { ignoreEncryption: true })
  ).getPageCount();
  subjects.push({
    name: `split ${basename(file)} (${pageCount} pages, ${Math.round(bytes.length / 1024)} KB)`,
    run: (lib) => splitDocument(lib, bytes, pageCount),
  });
}
const generated = new Map<PdfLib, Uint8Array>();
for (const { lib } of LIBS) generated.set(lib, await writeText(lib, 40));
subjects.push({
  name: 'split a 40-page PDF the library wrote',
  run: (lib) => splitDocument(lib, generated.get(lib) as Uint8Array, 40),
});
subjects.push({
  name: 'write 40 pages of text (FILE_CONVERSION)',
  run: async (lib) => (await writeText(lib, 40)).length,
});

const median = (list: readonly number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

console.log(machineLine());
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `| case | ${LIBS.map((l) => `${l.name} median ms`).join(' | ')} | ratio (old / new) | output bytes (old / new) |`,
);
console.log('|---|---|---|---|---|');
for (const subject of subjects) {
  const times = LIBS.map(() => [] as number[]);
  const sizes = LIBS.map(() => 0);
  for (const [i, { lib }] of LIBS.entries()) sizes[i] = await subject.run(lib); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const lib = (LIBS[i] as (typeof LIBS)[number]).lib;
      const t0 = performance.now();
      await subject.run(lib);
      (times[i] as number[]).push(performance.now() - t0);
    }
  }
  const [old, now] = times.map(median) as [number, number];
  console.log(
    `| ${subject.name} | ${old.toFixed(1)} | ${now.toFixed(1)} | ${(old / now).toFixed(2)} | ${sizes.join(' / ')} |`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
