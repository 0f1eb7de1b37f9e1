/**
 * XLSX with 100,000 rows × 6 columns (numbers, text, dates, a formula column): parse time with
 * exceljs's streaming reader and the process's peak RSS while parsing.
 * Run: cd bench && npx tsx src/parse/xlsx-large.ts
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseDocument } from '@docflow/steps';
import ExcelJS from 'exceljs';
import { machineLine } from '../harness.ts';

const ROWS = 100_000;
// Generated in a child process so that the generator's memory does not count here.
const dir = join(tmpdir(), 'docflow-parse-fixtures');
execFileSync(
  'npx',
  [
    'tsx',
    new URL('../../../packages/steps/scripts/generate-parse-fixtures.ts', import.meta.url).pathname,
    dir,
    'large-100k.xlsx',
  ],
  { stdio: 'ignore' },
);
const bytes = new Uint8Array(readFileSync(join(dir, 'large-100k.xlsx')));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadBefore = load();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const t0 = performance.now();
let result: Awaited<ReturnType<typeof parseDocument>> | undefined = await parseDocument(bytes, {
  fileName: 'large.xlsx',
});
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
if (!result.ok) throw new Error(result.failureMessage);
const cells = result.output.chunks.reduce(
  (sum, chunk) => sum + chunk.blocks.filter((block) => block.type === 'table_cell').length,
  0,
);
// Released before the peer runs, so that its GC does not walk docflow's 600,000 blocks.
result = undefined;
// Peer: exceljs's streaming reader alone with docflow's options, reading every cell's value
// (no output built).
const p0 = performance.now();
let touched = 0;
const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
  sharedStrings: 'cache',
  styles: 'cache',
  hyperlinks: 'ignore',
  worksheets: 'emit',
});
for await (const sheet of reader) {
  for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
    row.eachCell((cell) => {
      if (cell.value !== undefined) touched++;
    });
  }
}
const peerSeconds = (performance.now() - p0) / 1000;
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
console.log(`${machineLine()}
load average (1, 5, 15 min): ${loadBefore} before, ${load()} after
fixture: ${ROWS} rows × 6 columns, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB

| subject | seconds | table_cell blocks | RSS before MB | peak RSS MB | peak − before MB |
|---|---|---|---|---|---|
| docflow parseDocument (exceljs streaming) | ${seconds.toFixed(2)} | ${cells} | ${mb(before)} | ${mb(peak)} | ${mb(peak - before)} |
| exceljs 4.4.0 streaming reader alone (peer, no output) | ${peerSeconds.toFixed(2)} | ${touched} cells read | | | |

ratio docflow/reader time: ${(seconds / peerSeconds).toFixed(2)}

targets: < 5 s, < 500 MB`);
