/**
 * Born-digital PDF throughput: docflow's full PARSE output (positioned blocks, ruled tables,
 * markdown) against pdf-parse's text-only extraction of the same generated 200-page report.
 * Run: cd bench && npx tsx src/parse/pdf-throughput.ts
 */
import { Worker } from 'node:worker_threads';
import { parseDocument } from '@docflow/steps';
import { makeReportPdf } from '../../../packages/steps/test/fixtures/parse/make-pdf.ts';
import { machineLine } from '../harness.ts';

const PAGES = 200;
const RUNS = 5;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const { bytes } = await makeReportPdf({ pages: PAGES, tableRows: 18 });
console.log(
  `${machineLine()}\nfixture: ${PAGES}-page report, ${(bytes.length / 1024).toFixed(0)} KiB, 18-row ruled table per page`,
);

const peer = await new Promise<{ times: number[]; pages: number; chars: number }>(
  (resolve, reject) => {
    const worker = new Worker(new URL('./pdf-parse-worker.mjs', import.meta.url), {
      workerData: { bytes, runs: RUNS },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  },
);

const times: number[] = [];
let blocks = 0;
let tables = 0;
for (let i = 0; i < RUNS + 1; i++) {
  const t0 = performance.now();
  const result = await parseDocument(bytes, { fileName: 'report.pdf' });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error(result.failureMessage);
  if (i > 0) times.push(ms);
  blocks = result.output.chunks.reduce((sum, chunk) => sum + chunk.blocks.length, 0);
  tables = result.output.chunks.reduce(
    (sum, chunk) => sum + chunk.blocks.filter((block) => block.type === 'table').length,
    0,
  );
}

// parse_light: the same layout from text alone (no operator list: no rules, images, scans).
const lightTimes: number[] = [];
for (let i = 0; i < RUNS + 1; i++) {
  const t0 = performance.now();
  const result = await parseDocument(bytes, {
    fileName: 'report.pdf',
    config: { engine: 'parse_light' },
  });
  if (!result.ok) throw new Error(result.failureMessage);
  if (i > 0) lightTimes.push(performance.now() - t0);
}
const light = PAGES / (median(lightTimes) / 1000);

const ours = PAGES / (median(times) / 1000);
const theirs = peer.pages / (median(peer.times) / 1000);
console.log(`
| subject | pages/s (median of ${RUNS} warm runs) | median ms | output |
|---|---|---|---|
| docflow parseDocument (full PARSE) | ${ours.toFixed(0)} | ${median(times).toFixed(0)} | ${blocks} blocks, ${tables} tables |
| docflow parseDocument, engine parse_light (positioned text, no rules) | ${light.toFixed(0)} | ${median(lightTimes).toFixed(0)} | text blocks only |
| pdf-parse 2.4.5 getText (text only, worker thread) | ${theirs.toFixed(0)} | ${median(peer.times).toFixed(0)} | ${peer.chars} chars |

ratio docflow/pdf-parse: ${(ours / theirs).toFixed(2)} (target ≥ 1); parse_light/pdf-parse: ${(light / theirs).toFixed(2)}`);
