import type { StepRun, WorkflowRun } from '@docflow/engine';
import { canonicalJson } from './canonical.ts';

/** What two runs of the same input must agree on, free of ids, times and arrival order. */
export interface RunProjection {
  readonly status: string;
  readonly failureReason: string | null;
  /** Step name → the sorted canonical texts of its step runs (status, output, file names). */
  readonly steps: Record<string, string[]>;
}

const PROCESSOR_KEYS = ['parseRun', 'extractRun', 'classifyRun', 'splitRun'] as const;

/** The output a step run produced, whichever shape its `result` has (the interface's StepRun). */
export function outputOf(stepRun: StepRun): unknown {
  const result = stepRun.result as Record<string, unknown> | null;
  if (result === null) return null;
  if ('output' in result) return result.output;
  for (const key of PROCESSOR_KEYS) {
    const run = result[key] as { output?: unknown } | undefined;
    if (run) return run.output ?? null;
  }
  return null;
}

/** The canonical projection of a run (see {@link RunProjection}). */
export function projectRun(run: WorkflowRun): RunProjection {
  const steps: Record<string, string[]> = {};
  for (const sr of run.stepRuns) {
    const output = outputOf(sr);
    // Which arrival at a COLLECT hosts the join depends on arrival order; the others end
    // PROCESSED with `collectedInto` and keep their own files. The host's files are the union.
    const joined = output !== null && typeof output === 'object' && 'collectedInto' in output;
    const entry = canonicalJson({
      status: sr.status,
      output,
      files: joined ? null : sr.files.map((f) => f.name),
      failureReason: sr.failureReason,
    });
    const list = steps[sr.step.name] ?? [];
    list.push(entry);
    steps[sr.step.name] = list;
  }
  for (const list of Object.values(steps)) list.sort();
  return {
    status: run.status,
    failureReason: run.failureReason,
    steps: Object.fromEntries(Object.entries(steps).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
