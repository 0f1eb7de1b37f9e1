/**
 * OCR cost and recall on the evaluation corpus's development scans (`dev-scan-*`: other
 * producers' documents printed, skewed, noised, JPEG-compressed; 200–300 DPI): full PARSE CPU
 * milliseconds per page (every thread of this process and its reader processes), its OCR
 * recognitions per page (page recognitions plus parts read again), and word recall against
 * pdftotext of the document each scan was printed from. With `--baseline <dist>` (a compiled
 * @docflow/steps of another commit, as `tsc -b` writes it) both parse every scan in interleaved
 * rounds, the order alternating, and the CPU ratio baseline / this is reported per round.
 * The held-out scans are never read.
 *
 *   cd bench && npx tsx src/parse/ocr-scans.ts [--rounds 3] [--baseline <dist>]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { closeOcrPool, type ParseRunOutput, parseDocument } from '@docflow/steps';
import { ocrPoolStats } from '../../../packages/steps/src/parse/ocr/ocr-pool.ts';
import { corpusDir, DEFAULT_OPTIONS } from '../documents/corpus/generate.ts';
import { wordRecall } from '../documents/scoring/score.ts';
import { childrenCpuMs, machineLine } from '../harness.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, baseline: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 3);
const root = corpusDir(DEFAULT_OPTIONS.seed);
const dir = join(root, 'development');
if (!existsSync(dir)) throw new Error(`${dir}: no corpus (run src/documents/evaluate.ts first)`);
const scans = readdirSync(dir)
  .filter((name) => /^dev-scan-\d+\.pdf$/.test(name))
  .sort();

type Parse = typeof parseDocument;
type Close = typeof closeOcrPool;

/** The baseline's `parseDocument` and `closeOcrPool` (`--baseline`): its compiled index.js. */
async function baselineModule(path: string): Promise<{ parse: Parse; close: Close }> {
  const own = join(resolve(path), 'index.js');
  const entry = existsSync(own) ? own : join(resolve(path), 'dist', 'index.js');
  const module = (await import(pathToFileURL(entry).href)) as {
    parseDocument: Parse;
    closeOcrPool: Close;
  };
  return { parse: module.parseDocument, close: module.closeOcrPool };
}
const baseline = values.baseline ? await baselineModule(values.baseline) : undefined;

const CONFIG = { advancedOptions: { returnOcr: { words: true } } } as const;

async function measure(parse: Parse, bytes: Uint8Array, name: string) {
  const c0 = process.cpuUsage();
  const k0 = childrenCpuMs();
  const r0 = ocrPoolStats().recognitions;
  const result = await parse(bytes, { fileName: name, config: CONFIG });
  const used = process.cpuUsage(c0);
  if (!result.ok) throw new Error(`${name}: ${result.failureMessage}`);
  return {
    cpuMs: (used.user + used.system) / 1000 + childrenCpuMs() - k0,
    pages: result.usage.pages,
    // Only this build's pool is counted (the baseline's is another module instance).
    recognitions: ocrPoolStats().recognitions - r0,
    output: result.output,
  };
}

const text = (output: ParseRunOutput) => output.chunks.map((c) => c.content).join('\n');
const median = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

console.log(
  `${machineLine()}\n${scans.length} development scans of ${root}, ${ROUNDS} interleaved rounds after one warm-up round${baseline ? `, baseline ${values.baseline}` : ''}`,
);
const loads: number[] = [loadavg()[0] ?? 0];
const rows: string[] = [];
let found = 0;
let total = 0;
let baseFound = 0;
const allRatios: number[] = [];
for (const name of scans) {
  const bytes = new Uint8Array(readFileSync(join(dir, name)));
  const reference = execFileSync(
    'pdftotext',
    [join(root, 'work', name.replace(/\.pdf$/, '.printed.pdf')), '-'],
    { encoding: 'utf8' },
  );
  // Warm-up: workers and WASM start once per process and build.
  const first = await measure(parseDocument, bytes, name);
  const base0 = baseline ? await measure(baseline.parse, bytes, name) : undefined;
  const ours: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const run = async (which: 'ours' | 'base') => {
      const m = await measure(
        which === 'ours' ? parseDocument : (baseline as { parse: Parse }).parse,
        bytes,
        name,
      );
      (which === 'ours' ? ours : theirs).push(m.cpuMs / m.pages);
    };
    if (!baseline) await run('ours');
    else if (round % 2 === 0) {
      await run('ours');
      await run('base');
    } else {
      await run('base');
      await run('ours');
    }
    if (baseline) ratios.push((theirs[round] ?? 0) / (ours[round] ?? 1));
    loads.push(loadavg()[0] ?? 0);
  }
  allRatios.push(...ratios);
  const r = wordRecall(reference, text(first.output));
  found += r.found;
  total += r.total;
  const rb = base0 ? wordRecall(reference, text(base0.output)) : undefined;
  if (rb) baseFound += rb.found;
  rows.push(
    `| ${name} | ${first.pages} | ${median(ours).toFixed(0)} | ${(first.recognitions / first.pages).toFixed(1)} | ${(r.found / r.total).toFixed(4)} |${baseline && rb ? ` ${median(theirs).toFixed(0)} | ${(rb.found / rb.total).toFixed(4)} | **${(median(theirs) / median(ours)).toFixed(2)}** | ${ratios.map((x) => x.toFixed(2)).join(', ')} |` : ''}`,
  );
}
console.log(
  `\n| scan | pages | CPU ms per page (median) | OCR recognitions per page | word recall |${baseline ? ' baseline CPU ms per page | baseline recall | CPU ratio baseline / this | per-round ratios |' : ''}\n|---|---|---|---|---|${baseline ? '---|---|---|---|' : ''}\n${rows.join('\n')}`,
);
console.log(
  `\nall: word recall ${(found / total).toFixed(4)}${baseline ? `, baseline ${(baseFound / total).toFixed(4)}; CPU ratio baseline / this, median of every round ${median(allRatios).toFixed(2)} (range ${Math.min(...allRatios).toFixed(2)}–${Math.max(...allRatios).toFixed(2)})` : ''}; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
await closeOcrPool();
await baseline?.close();
