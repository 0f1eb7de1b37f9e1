/**
 * OCR seconds per page: 300-DPI letter scans (rendered from a generated report), recognised with
 * docflow's tesseract.js worker pool (one worker per core), pages submitted together. Wall time
 * depends on what else the machine runs, so the load average and the CPU seconds per page (all
 * threads of this process: workers, libvips, main) are printed beside it.
 * Run: cd bench && npx tsx src/parse/ocr-throughput.ts
 */
import { loadavg } from 'node:os';
import { closeOcrPool, ocrPoolSize, parseDocument } from '@docflow/steps';
import { ocrPoolStats } from '../../../packages/steps/src/parse/ocr/ocr-pool.ts';
import { makeScanPng } from '../../../packages/steps/test/fixtures/parse/make-scan.ts';
import { wordRecall } from '../../../packages/steps/test/parse/metrics.ts';
import { machineLine } from '../harness.ts';

const PAGES = 6;
const upright = await makeScanPng({ dpi: 300, tableRows: 18 });
const sideways = await makeScanPng({ dpi: 300, tableRows: 18, rotate: 90 });
const upsideDown = await makeScanPng({ dpi: 300, tableRows: 18, rotate: 180 });
const expected = [
  upright.truth.heading,
  ...upright.truth.paragraphs,
  ...upright.truth.table.flat(),
].join(' ');
console.log(
  `${machineLine()}\nfixture: ${PAGES} × 300-DPI letter scan (2550×3301 px, gray PNG), pool size ${ocrPoolSize()}`,
);

interface Row {
  readonly secondsPerPage: number;
  readonly cpuSecondsPerPage: number;
  readonly recall: number;
  readonly osdRuns: number;
  readonly recognitions: number;
  readonly load: string;
}

async function run(png: Uint8Array, rotation: boolean): Promise<Row> {
  const config = { advancedOptions: { pageRotationEnabled: rotation } };
  // Warm-up: worker start and WASM compilation are paid once per process.
  await parseDocument(png, { config });
  const load0 = loadavg()[0] ?? 0;
  const stats0 = ocrPoolStats();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: PAGES }, () => parseDocument(png, { config })),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // The worst page: every page must keep the recall.
  const recall = Math.min(
    ...results.map((r) => (r.ok ? wordRecall(expected, r.output.chunks[0]?.content ?? '') : 0)),
  );
  return {
    secondsPerPage: seconds / PAGES,
    cpuSecondsPerPage: (cpu.user + cpu.system) / 1e6 / PAGES,
    recall,
    osdRuns: ocrPoolStats().orientationDetections - stats0.orientationDetections,
    recognitions: ocrPoolStats().recognitions - stats0.recognitions,
    load: `${load0.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`,
  };
}

// Upright portrait pages are recognised once and skip OSD when they read as upright; landscape
// images (a page fed sideways) get OSD first; a portrait page upside down is recognised twice.
const rows: [string, Row][] = [
  ['OCR, pageRotationEnabled false', await run(upright.png, false)],
  ['OCR + orientation (default), upright pages', await run(upright.png, true)],
  ['OCR + orientation (default), pages fed sideways (90°)', await run(sideways.png, true)],
  ['OCR + orientation (default), pages upside down (180°)', await run(upsideDown.png, true)],
];
console.log(`
| mode | s/page wall (${PAGES} pages in parallel on the pool) | CPU s/page | word recall | recognitions | OSD runs | load average |
|---|---|---|---|---|---|---|
${rows
  .map(
    ([mode, r]) =>
      `| ${mode} | ${r.secondsPerPage.toFixed(2)} | ${r.cpuSecondsPerPage.toFixed(2)} | ${r.recall.toFixed(3)} | ${r.recognitions} | ${r.osdRuns} | ${r.load} |`,
  )
  .join('\n')}

target ≤ 1.5 s/page`);
await closeOcrPool();
