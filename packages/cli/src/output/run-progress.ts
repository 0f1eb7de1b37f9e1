/**
 * Progress of workflow runs on stderr: on a terminal, one cli-progress bar per file showing the
 * steps done and the last step, or the page a PARSE step has reached; elsewhere, one line per
 * finished run (no cursor tricks in logs).
 */
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { CliContext } from '../cli-context.ts';
import { styleStatus } from './style.ts';

/** Tracks the runs of one `docflow run`. */
export interface RunProgress {
  /** A step run of `runId` finished. */
  step(runId: string, stepName: string): void;
  /** A PARSE step of `runId` has parsed `pagesDone` of its file's `pageCount` pages. */
  pages(runId: string, pagesDone: number, pageCount: number): void;
  /** `runId` settled with `status`. */
  done(runId: string, status: string): void;
  stop(): void;
}

/** Creates the progress display for `runs` (run id → file label), `steps` steps each. */
export function createRunProgress(
  context: CliContext,
  runs: ReadonlyMap<string, string>,
  steps: number,
  enabled: boolean,
): RunProgress {
  if (!enabled) return { step() {}, pages() {}, done() {}, stop() {} };
  if (!context.stderr.isTTY) {
    return {
      step() {},
      pages() {},
      done(runId, status) {
        context.warn(`${runs.get(runId) ?? runId}: ${styleStatus(context.err, status)}`);
      },
      stop() {},
    };
  }
  const labelWidth = Math.max(...[...runs.values()].map((l) => l.length));
  const multibar = new MultiBar(
    {
      format: `{label} {bar} {value}/{total} steps  {detail}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      stream: context.stderr,
    },
    Presets.shades_classic,
  );
  const bars = new Map<string, SingleBar>();
  for (const [runId, label] of runs) {
    bars.set(
      runId,
      multibar.create(steps, 0, { label: label.padEnd(labelWidth), detail: 'queued' }),
    );
  }
  return {
    step(runId, stepName) {
      const bar = bars.get(runId);
      if (!bar) return;
      // The definition's step count is an estimate: forks can run a step more than once.
      if (bar.getProgress() >= 1) bar.setTotal(bar.getTotal() + 1);
      bar.increment(1, { detail: stepName });
    },
    pages(runId, pagesDone, pageCount) {
      // Only a long document is worth a page count: a bar that flickers 0/1 → 1/1 says nothing.
      if (pageCount < 2) return;
      bars.get(runId)?.update({ detail: `parse: page ${pagesDone} of ${pageCount}` });
    },
    done(runId, status) {
      const bar = bars.get(runId);
      if (!bar) return;
      bar.update(bar.getTotal(), { detail: styleStatus(context.err, status) });
    },
    stop() {
      multibar.stop();
    },
  };
}
