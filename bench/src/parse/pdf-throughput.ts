/**
 * Born-digital PDF throughput: docflow's full PARSE output (positioned blocks, ruled tables,
 * markdown) against pdf-parse's text-only extraction of the same generated 200-page report.
 * Rounds interleave the subjects (pdf-parse, full PARSE, parse_light), so that a machine whose
 * load changes during the run weighs on all three alike; CPU time is the process's (all threads)
 * and its children's (docflow's PDF reader processes, by /proc) during each parse, the others
 * being idle then.
 * `--in-thread` adds a fourth subject to the rounds: the full PARSE with `limits.workerHeapMb: 0`,
 * pdf.js in this thread as before docflow's PDF reader processes (issue 21).
 * Run: cd bench && npx tsx src/parse/pdf-throughput.ts [--in-thread]
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseDocument } from '@docflow/steps';
import { makeReportPdf } from '../../../packages/steps/test/fixtures/parse/make-pdf.ts';
import { childrenCpuMs, machineLine } from '../harness.ts';

const PAGES = 200;
const ROUNDS = 7;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const { bytes } = await makeReportPdf({ pages: PAGES, tableRows: 18 });
console.log(
  `${machineLine()}\nfixture: ${PAGES}-page report, ${(bytes.length / 1024).toFixed(0)} KiB, 18-row ruled table per page`,
);

const peer = new Worker(new URL('./pdf-parse-worker.mjs', import.meta.url), {
  workerData: { bytes },
});
function peerParse(): Promise<{ ms: number; pages: number; chars: number }> {
  return new Promise((resolve, reject) => {
    peer.once('message', resolve);
    peer.once('error', reject);
    peer.postMessage('parse');
  });
}

interface Sample {
  ms: number;
  cpuMs: number;
}
async function timed<T>(fn: () => Promise<T>): Promise<Sample & { value: T }> {
  const c0 = process.cpuUsage();
  const k0 = childrenCpuMs();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 + childrenCpuMs() - k0, value };
}

const IN_THREAD = process.argv.includes('--in-thread');

async function docflow(engine: 'parse_performance' | 'parse_light', inThread = false) {
  const result = await parseDocument(bytes, {
    fileName: 'report.pdf',
    config: { engine },
    ...(inThread ? { limits: { workerHeapMb: 0 } } : {}),
  });
  if (!result.ok) throw new Error(result.failureMessage);
  return result.output.chunks;
}

const samples = {
  peer: [] as Sample[],
  full: [] as Sample[],
  light: [] as Sample[],
  thread: [] as Sample[],
};
let peerPages = 0;
let chars = 0;
let blocks = 0;
let tables = 0;
const loads: number[] = [];
// Round 0 warms every subject up (JIT, fonts, worker threads) and is not counted.
for (let round = 0; round <= ROUNDS; round++) {
  const p = await timed(peerParse);
  const f = await timed(() => docflow('parse_performance'));
  const l = await timed(() => docflow('parse_light'));
  const t = IN_THREAD ? await timed(() => docflow('parse_performance', true)) : undefined;
  peerPages = p.value.pages;
  chars = p.value.chars;
  blocks = f.value.reduce((sum, chunk) => sum + chunk.blocks.length, 0);
  tables = f.value.reduce(
    (sum, chunk) => sum + chunk.blocks.filter((block) => block.type === 'table').length,
    0,
  );
  if (round === 0) continue;
  // The worker's own clock: the message round trip is not pdf-parse's work.
  samples.peer.push({ ms: p.value.ms, cpuMs: p.cpuMs });
  samples.full.push(f);
  samples.light.push(l);
  if (t) samples.thread.push(t);
  loads.push(loadavg()[0] ?? Number.NaN);
}
await peer.terminate();

const rate = (list: Sample[], pages: number) => pages / (median(list.map((s) => s.ms)) / 1000);
const ours = rate(samples.full, PAGES);
const light = rate(samples.light, PAGES);
const theirs = rate(samples.peer, peerPages);
const row = (name: string, list: Sample[], pages: number, output: string) =>
  `| ${name} | ${rate(list, pages).toFixed(0)} | ${median(list.map((s) => s.ms)).toFixed(0)} | ${median(list.map((s) => s.cpuMs)).toFixed(0)} | ${output} |`;
console.log(`
| subject | pages/s (median of ${ROUNDS} interleaved rounds) | median ms | median CPU ms (all threads and readers) | output |
|---|---|---|---|---|
${row('docflow parseDocument (full PARSE)', samples.full, PAGES, `${blocks} blocks, ${tables} tables`)}
${row('docflow parseDocument, engine parse_light (positioned text, no rules)', samples.light, PAGES, 'text blocks only')}
${row('pdf-parse 2.4.5 getText (text only, worker thread)', samples.peer, peerPages, `${chars} chars`)}${IN_THREAD ? `\n${row('docflow full PARSE in this thread (limits.workerHeapMb: 0, as before issue 21)', samples.thread, PAGES, 'the same')}` : ''}

ratio docflow/pdf-parse: ${(ours / theirs).toFixed(2)} (target ≥ 1); parse_light/pdf-parse: ${(light / theirs).toFixed(2)}${IN_THREAD ? `; reader process/in-thread: ${(ours / rate(samples.thread, PAGES)).toFixed(2)}` : ''}
load average (1 min) during the rounds: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`);
process.exit(0);
