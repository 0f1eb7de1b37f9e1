import type { JsonObject, JsonValue } from '@docflow/storage';
import type { CreatedBy } from '../created-by.ts';
import type { ProcessorUsed } from '../processors/processor-resource.ts';
import type { FileSummary, StepType, StepUsage } from '../step-executor.ts';
import type { RunStatus, StepRunStatus } from './lifecycle.ts';

export type { CreatedBy } from '../created-by.ts';

/** The interface's WorkflowSummary. */
export interface WorkflowSummary {
  readonly object: 'workflow';
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly createdBy: CreatedBy | null;
}

/** The interface's WorkflowVersionSummary. */
export interface WorkflowVersionSummary {
  readonly object: 'workflow_version';
  readonly id: string;
  /** "1", "2", … or "draft". */
  readonly version: string;
  readonly name: string;
  readonly createdAt: string;
  readonly createdBy: CreatedBy | null;
}

/**
 * Where a step run's lineage points: the step run that produced a step's output on this path,
 * or several when a COLLECT joined paths that each passed the step.
 */
export type LineageRef = string | readonly string[];

/** A step run as persisted in the run snapshot. */
export interface StepRunState {
  id: string;
  stepName: string;
  stepType: StepType;
  status: StepRunStatus;
  fileIds: string[];
  /**
   * The step runs this one came from: one, several where a COLLECT joined paths, none for
   * TRIGGER. The outputs its path carries follow from them (`lineageOf`).
   */
  parents?: string[];
  /**
   * Step name → the step run(s) whose outputs this path carries, as snapshots written before
   * 2026-11-23 hold it (in place of `parents`).
   */
  lineage?: Record<string, LineageRef>;
  /** Execution attempts started so far. */
  attempt: number;
  /** Executions found unfinished by another process (`runtime/lost-executions.ts`). */
  lost?: number;
  /** Of those, executions whose process was alive: its lease had been taken over. */
  takenOver?: number;
  /** The last execution was interrupted by `engine.stop()`, not lost. */
  interrupted?: boolean;
  /** Small outputs inline; large ones in the blob store under `outputRef`. */
  output?: JsonValue;
  outputRef?: string;
  /** What `next` entries were matched against. */
  route?: string | string[] | null;
  usage?: StepUsage;
  failureReason?: string;
  failureMessage?: string;
  createdAt: string;
  startTime?: string;
  endTime?: string;
  /** COLLECT: the step runs whose paths arrived. */
  collected?: string[];
  /** The saved processor the step ran (extractor, classifier, splitter) and its config. */
  processor?: { readonly used: ProcessorUsed; readonly config: JsonObject };
  /** Human review: set when a reviewer changed this step's output. */
  review?: { initialOutput: JsonValue; edits: JsonObject };
}

/** The snapshot of a workflow run: everything needed to continue it. */
export interface RunState {
  v: 1;
  id: string;
  workflow: WorkflowSummary;
  workflowVersion: WorkflowVersionSummary;
  /** The immutable definition document the run executes. */
  definitionId: string;
  status: RunStatus;
  priority: number;
  metadata: JsonObject;
  batchId: string | null;
  /** The run's input files. */
  fileIds: string[];
  /** Summaries of every file the run touches (inputs and files created by steps). */
  fileIndex: Record<string, FileSummary>;
  /** `processorId` → output overrides given at creation. */
  outputOverrides: Record<string, JsonValue>;
  /** Blob key of the encrypted secrets, when the run has any. */
  secretsRef?: string;
  failureReason: string | null;
  failureMessage: string | null;
  initialRunAt: string | null;
  startTime: string | null;
  endTime: string | null;
  reviewed: boolean;
  reviewedByUser: string | null;
  reviewedAt: string | null;
  rejectionNote: string | null;
  stepRuns: StepRunState[];
  createdAt: string;
  updatedAt: string;
}
