/**
 * The benchmark harness: run a subject and its peer side by side in one process and print the
 * ratio. Every benchmark in `bench/src` uses it so that figures in `bench/README.md` are comparable.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** What one measured function produced. */
export interface Measurement {
  readonly name: string;
  /** Operations per second over the measured window. */
  readonly opsPerSecond: number;
  /** Per-sample latency percentiles in milliseconds. */
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly samples: number;
}

/** Options for {@link measure}. */
export interface MeasureOptions {
  /** Stop after this many milliseconds of measuring (default 2000). */
  readonly durationMs?: number;
  /** Warm-up milliseconds, not measured (default 300). */
  readonly warmupMs?: number;
  /** Operations one call of `fn` performs (default 1); ops/s counts these. */
  readonly opsPerCall?: number;
  /** Upper bound on calls (default unbounded). */
  readonly maxCalls?: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.floor(p * sorted.length));
  return sorted[index] ?? Number.NaN;
}

/** Calls `fn` repeatedly (awaiting it) and reports throughput and latency. */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const durationMs = options.durationMs ?? 2000;
  const warmupMs = options.warmupMs ?? 300;
  const opsPerCall = options.opsPerCall ?? 1;
  const maxCalls = options.maxCalls ?? Number.POSITIVE_INFINITY;
  const warmupEnd = performance.now() + warmupMs;
  while (performance.now() < warmupEnd) await fn();
  const samples: number[] = [];
  const start = performance.now();
  const end = start + durationMs;
  let calls = 0;
  while (performance.now() < end && calls < maxCalls) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    calls++;
  }
  const elapsed = performance.now() - start;
  samples.sort((a, b) => a - b);
  return {
    name,
    opsPerSecond: (calls * opsPerCall * 1000) / elapsed,
    medianMs: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
    samples: calls,
  };
}

/** A row of a comparison table. */
export interface ComparisonRow {
  readonly subject: Measurement;
  readonly peer: Measurement;
  /** Target ratio subject/peer throughput, when the issue names one. */
  readonly target?: string | undefined;
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (n >= 100) return n.toFixed(0);
  if (n >= 1) return n.toFixed(2);
  return n.toPrecision(3);
}

/** The machine line printed above every table and recorded in `bench/README.md`. */
export function machineLine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `Node ${process.version}, ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

/** Prints a markdown table of subject vs peer with throughput ratios. */
export function report(title: string, rows: readonly ComparisonRow[]): string {
  const lines = [
    `### ${title}`,
    '',
    machineLine(),
    '',
    '| subject | ops/s | median ms | p99 ms | peer | ops/s | median ms | ratio (subject/peer) | target |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { subject, peer, target } of rows) {
    lines.push(
      `| ${subject.name} | ${fmt(subject.opsPerSecond)} | ${fmt(subject.medianMs)} | ${fmt(subject.p99Ms)} | ${peer.name} | ${fmt(peer.opsPerSecond)} | ${fmt(peer.medianMs)} | ${fmt(subject.opsPerSecond / peer.opsPerSecond)} | ${target ?? ''} |`,
    );
  }
  const text = lines.join('\n');
  console.log(`${text}\n`);
  return text;
}

const scratch: string[] = [];
/** A temp directory for a benchmark's files, removed when the process exits. */
export function scratchDir(prefix: string): string {
  if (scratch.length === 0) {
    process.on('exit', () => {
      for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/**
 * CPU milliseconds of this process's children (docflow's reader processes) by /proc: user and
 * system clock ticks (100 per second) of every process whose parent is this one, and of those
 * that ended and were waited for (this process's cutime and cstime: a reader ended after a large
 * answer). The children are those the kernel lists for this process's main thread (which starts
 * them); where it keeps no such list, every process's parent is read instead, which costs this
 * process a few milliseconds of CPU per call on a machine with hundreds of processes (and counted
 * in the CPU of what is measured). 0 where there is no /proc.
 */
export function childrenCpuMs(): number {
  let ticks = 0;
  try {
    const own = readFileSync('/proc/self/stat', 'utf8');
    const fields = own.slice(own.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
  const listed = childPids();
  let entries: string[];
  try {
    entries = listed ?? readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (in parentheses, which may hold spaces): state, ppid, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) !== process.pid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** The processes this process's main thread started, as the kernel lists them; undefined where it does not. */
function childPids(): string[] | undefined {
  try {
    const list = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim();
    return list === '' ? [] : list.split(' ');
  } catch {
    return undefined;
  }
}

/**
 * Resident bytes of this process's children (docflow's reader processes) by /proc: the children
 * the kernel lists for this process's main thread (which starts them), each one's resident pages.
 * Cheap enough to sample every few milliseconds. 0 where there is no /proc.
 */
export function childrenRssBytes(): number {
  let bytes = 0;
  for (const pid of childPids() ?? []) {
    try {
      // statm: size, resident, shared, … in pages of 4 KiB.
      bytes += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      // exited meanwhile
    }
  }
  return bytes;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
