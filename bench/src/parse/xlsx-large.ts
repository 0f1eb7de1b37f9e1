/**
 * XLSX with 100,000 rows × 6 columns (numbers, text, dates, a formula column): parse time, CPU and
 * peak RSS of the process and its children (docflow's reader process, by /proc, sampled
 * together), each subject in a fresh child process per round, rounds interleaved.
 * Subjects: docflow's `parseDocument` (this checkout), exceljs 4.4's streaming reader alone (the
 * reader docflow used before decision 0027, reading every cell's value, no output built) and,
 * with `--baseline <dir>`, `parseDocument` from another checkout's `packages/steps` (for example
 * one still on exceljs), so that old and new run side by side.
 * Run: cd bench && npx tsx src/parse/xlsx-large.ts [--rounds 3] [--baseline /path/to/packages/steps]
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { childrenCpuMs, childrenRssBytes, machineLine } from '../harness.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    child: { type: 'string' },
    module: { type: 'string' },
  },
});
const ROWS = 100_000;
const dir = join(tmpdir(), 'docflow-parse-fixtures');
const fixture = join(dir, 'large-100k.xlsx');

interface Measure {
  readonly seconds: number;
  /**
   * CPU seconds of the whole process (all threads) and its reader processes while parsing:
   * steadier than time under load.
   */
  readonly cpuSeconds: number;
  readonly beforeMb: number;
  readonly peakMb: number;
  readonly cells: number;
}

async function child(subject: string, module: string | undefined): Promise<Measure> {
  const bytes = new Uint8Array(readFileSync(fixture));
  const rss = () => process.memoryUsage().rss + childrenRssBytes();
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const k0 = childrenCpuMs();
  let cells = 0;
  if (subject === 'exceljs') {
    const { default: ExcelJS } = await import('exceljs');
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    for await (const sheet of reader) {
      for await (const row of sheet as unknown as AsyncIterable<{
        eachCell(fn: (cell: { value: unknown }) => void): void;
      }>) {
        row.eachCell((cell) => {
          if (cell.value !== undefined) cells++;
        });
      }
    }
  } else {
    const steps = (await import(
      module ? pathToFileURL(join(module, 'src', 'index.ts')).href : '@docflow/steps'
    )) as typeof import('@docflow/steps');
    const result = await steps.parseDocument(bytes, { fileName: 'large.xlsx' });
    if (!result.ok) throw new Error(result.failureMessage);
    for (const chunk of result.output.chunks) {
      for (const block of chunk.blocks) if (block.type === 'table_cell') cells++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const childCpuMs = childrenCpuMs() - k0;
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  return {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6 + childCpuMs / 1000,
    beforeMb: before / 2 ** 20,
    peakMb: peak / 2 ** 20,
    cells,
  };
}

if (values.child) {
  console.log(JSON.stringify(await child(values.child, values.module)));
  process.exit(0);
}

// Generated in a child process so that the generator's memory does not count anywhere.
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
const subjects: { label: string; args: string[] }[] = [
  { label: 'docflow parseDocument (this checkout: its own streaming reader)', args: ['docflow'] },
  { label: 'exceljs 4.4.0 streaming reader alone (no output)', args: ['exceljs'] },
];
if (values.baseline) {
  subjects.push({
    label: `docflow parseDocument (baseline: ${values.baseline})`,
    args: ['docflow', '--module', resolve(values.baseline)],
  });
}
const self = fileURLToPath(import.meta.url);
const results = new Map<string, Measure[]>(subjects.map((s) => [s.label, []]));
const failures = new Map<string, string[]>(subjects.map((s) => [s.label, []]));
const loads: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const subject of subjects) {
    const [name, ...rest] = subject.args;
    try {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', self, '--child', name ?? '', ...rest],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      results.get(subject.label)?.push(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Measure);
    } catch (error) {
      // A subject that fails a round (exceljs's reader has a race) is reported, not fatal.
      const stderr = String((error as { stderr?: unknown }).stderr ?? error);
      const line = stderr.split('\n').find((l) => /Error/.test(l)) ?? stderr.split('\n')[0] ?? '';
      failures.get(subject.label)?.push(line.trim().slice(0, 160));
    }
    loads.push(loadavg()[0] ?? Number.NaN);
  }
}
const median = (list: readonly number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
const rows = subjects.map(({ label }) => {
  const runs = results.get(label) ?? [];
  const seconds = median(runs.map((r) => r.seconds));
  const peak = median(runs.map((r) => r.peakMb));
  const growth = median(runs.map((r) => r.peakMb - r.beforeMb));
  const cpu = median(runs.map((r) => r.cpuSeconds));
  const failed = failures.get(label)?.length ?? 0;
  const each = (values: readonly number[], digits: number) =>
    values.map((v) => v.toFixed(digits)).join(', ');
  return `| ${label} | ${seconds.toFixed(2)} (${each(
    runs.map((r) => r.seconds),
    2,
  )}) | ${cpu.toFixed(2)} | ${runs[0]?.cells ?? 0} | ${peak.toFixed(0)} (${each(
    runs.map((r) => r.peakMb),
    0,
  )}) | ${growth.toFixed(0)} | ${failed} |`;
});
console.log(`${machineLine()}
load average (1 min) during the rounds: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}
fixture: ${ROWS} rows × 6 columns, ${(readFileSync(fixture).length / 2 ** 20).toFixed(1)} MiB; ${values.rounds} interleaved rounds, a fresh process per subject and round

| subject | seconds, median (each round) | CPU seconds, median | cells | peak RSS MB (with readers), median (each round) | peak − start MB | failed rounds |
|---|---|---|---|---|---|---|
${rows.join('\n')}
${[...failures].flatMap(([label, list]) => list.map((l) => `\n${label} failed: ${l}`)).join('')}

targets: < 5 s, < 500 MB`);
