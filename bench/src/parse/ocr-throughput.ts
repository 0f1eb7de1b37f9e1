/**
 * OCR seconds per page: 300-DPI letter scans (rendered from a generated report), recognised with
 * docflow's tesseract.js worker pool (one worker per core), pages submitted together.
 * Run: cd bench && npx tsx src/parse/ocr-throughput.ts
 */
import { availableParallelism } from 'node:os';
import { closeOcrPool, parseDocument } from '@docflow/steps';
import { makeScanPng } from '../../../packages/steps/test/fixtures/parse/make-scan.ts';
import { wordRecall } from '../../../packages/steps/test/parse/metrics.ts';
import { machineLine } from '../harness.ts';

const PAGES = 6;
const scan = await makeScanPng({ dpi: 300, tableRows: 18 });
const expected = [scan.truth.heading, ...scan.truth.paragraphs, ...scan.truth.table.flat()].join(
  ' ',
);
console.log(
  `${machineLine()}\nfixture: ${PAGES} × 300-DPI letter scan (2550×3300 px), pool size ${Math.min(4, availableParallelism())}`,
);

async function run(rotation: boolean): Promise<{ secondsPerPage: number; recall: number }> {
  const config = { advancedOptions: { pageRotationEnabled: rotation } };
  // Warm-up: worker start and WASM compilation are paid once per process.
  await parseDocument(scan.png, { config });
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: PAGES }, () => parseDocument(scan.png, { config })),
  );
  const seconds = (performance.now() - t0) / 1000;
  const first = results[0];
  const recall = first?.ok ? wordRecall(expected, first.output.chunks[0]?.content ?? '') : 0;
  return { secondsPerPage: seconds / PAGES, recall };
}

const plain = await run(false);
const withOsd = await run(true);
console.log(`
| mode | s/page (${PAGES} pages in parallel on the pool) | word recall |
|---|---|---|
| OCR, pageRotationEnabled false | ${plain.secondsPerPage.toFixed(2)} | ${plain.recall.toFixed(3)} |
| OCR + OSD orientation, pageRotationEnabled true (default) | ${withOsd.secondsPerPage.toFixed(2)} | ${withOsd.recall.toFixed(3)} |

target ≤ 1.5 s/page`);
await closeOcrPool();
