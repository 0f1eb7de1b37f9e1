/**
 * Writes the generated PARSE fixtures to a folder (default: the OS temp dir), for benchmarks and
 * manual inspection. The generators know the ground truth; nothing is downloaded.
 * Run: npx tsx packages/steps/scripts/generate-parse-fixtures.ts [outDir] [name ...]
 * Names: report-200p.pdf, report-rotated.pdf, form.pdf, scan-300dpi.png, scanned.pdf,
 * barcodes.png, sample.docx, sample.xlsx, large-100k.xlsx
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBarcodePng } from '../test/fixtures/parse/make-barcode.ts';
import { makeDocx, makeLargeXlsx, makeXlsx } from '../test/fixtures/parse/make-office.ts';
import { makeFormPdf, makeReportPdf } from '../test/fixtures/parse/make-pdf.ts';
import { makeScannedPdf, makeScanPng } from '../test/fixtures/parse/make-scan.ts';

const generators: Record<string, () => Promise<Uint8Array>> = {
  'report-200p.pdf': async () => (await makeReportPdf({ pages: 200, tableRows: 18 })).bytes,
  'report-rotated.pdf': async () =>
    (await makeReportPdf({ pages: 4, rotatedPages: [2], turnedTextPages: [3] })).bytes,
  'form.pdf': makeFormPdf,
  'scan-300dpi.png': async () => (await makeScanPng({ dpi: 300, tableRows: 18 })).png,
  'scanned.pdf': async () => (await makeScannedPdf()).bytes,
  'barcodes.png': makeBarcodePng,
  'sample.docx': makeDocx,
  'sample.xlsx': makeXlsx,
  'large-100k.xlsx': () => makeLargeXlsx(100_000),
};

const [outDir = join(tmpdir(), 'docflow-parse-fixtures'), ...names] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const name of names.length > 0 ? names : Object.keys(generators)) {
  const generate = generators[name];
  if (!generate)
    throw new Error(`unknown fixture ${name}; known: ${Object.keys(generators).join(', ')}`);
  const bytes = await generate();
  writeFileSync(join(outDir, name), bytes);
  console.log(`${join(outDir, name)} (${bytes.length} bytes)`);
}
