import type { JsonObject, JsonValue } from '@docflow/storage';
import type { ProcessorUsed } from '../processors/processor-resource.ts';
import type { StandaloneRunStatus } from '../run/lifecycle.ts';
import type { FileSummary, StepUsage } from '../step-executor.ts';
import type { StandaloneKind } from './standalone-kinds.ts';

/**
 * The snapshot of a standalone run (a parse, extract, classify or split run): one step, run by
 * the executor of its type, with the same attempts, retries, timeouts and aborts as a workflow
 * step. Resources are projected from it (`standalone-resource.ts`).
 */
export interface StandaloneRunState {
  v: 2;
  id: string;
  kind: StandaloneKind;
  status: StandaloneRunStatus;
  priority: number;
  batchId: string | null;
  metadata: JsonObject;
  /** Attempts started so far. */
  attempt: number;
  /** While the next attempt waits for its backoff: when it may start. */
  retryAt?: string;
  /** Executions found unfinished by another process (`runtime/lost-executions.ts`). */
  lost?: number;
  /** Of those, executions whose process was alive: its lease had been taken over. */
  takenOver?: number;
  /** The last execution was interrupted by `engine.stop()`, not lost. */
  interrupted?: boolean;
  /** The configuration used, defaults applied (the interface's `config`). */
  config: JsonObject;
  /** What the executor gets as `input.config` (`{ parseConfig }`, `{ extractorConfig }`, …). */
  stepConfig: JsonObject;
  /** The saved processor, when the run was created with one. */
  processor: ProcessorUsed | null;
  fileIds: string[];
  fileIndex: Record<string, FileSummary>;
  /** An extract run over a package of files (`file` is then null, `files` lists them). */
  multifile: boolean;
  output: JsonValue;
  usage: StepUsage | null;
  failureReason: string | null;
  failureMessage: string | null;
  startTime: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Reads a stored snapshot. Runs stored before 2026-11-26 kept the resource itself
 * (`{ run, stepConfig, fileIds, fileIndex }`); they are read into this shape, without the
 * processor summary those never held.
 */
export function readStandaloneState(snapshot: JsonObject): StandaloneRunState {
  if (snapshot.v === 2) return snapshot as unknown as StandaloneRunState;
  const old = snapshot as unknown as {
    run: Record<string, JsonValue>;
    stepConfig: JsonObject;
    fileIds: string[];
    fileIndex: Record<string, FileSummary>;
  };
  const run = old.run;
  return {
    v: 2,
    id: String(run.id),
    kind: run.object as StandaloneKind,
    status: run.status as StandaloneRunStatus,
    priority: 50,
    batchId: (run.batchId as string | null) ?? null,
    metadata: (run.metadata as JsonObject) ?? {},
    attempt: run.status === 'PENDING' ? 0 : 1,
    config: (run.config as JsonObject | null) ?? {},
    stepConfig: old.stepConfig,
    processor: null,
    fileIds: old.fileIds,
    fileIndex: old.fileIndex,
    multifile: Array.isArray(run.files),
    output: run.output ?? null,
    usage: (run.usage as unknown as StepUsage | null) ?? null,
    failureReason: (run.failureReason as string | null) ?? null,
    failureMessage: (run.failureMessage as string | null) ?? null,
    startTime: null,
    createdAt: String(run.createdAt),
    updatedAt: String(run.updatedAt),
  };
}
