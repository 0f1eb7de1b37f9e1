import type { JsonObject, JsonValue } from '@docflow/storage';
import type {
  ProcessorSummary,
  ProcessorVersionSummary,
} from '../processors/processor-resource.ts';
import type { StandaloneRunStatus } from '../run/lifecycle.ts';
import type { FileSummary } from '../step-executor.ts';
import type { StandaloneKind } from './standalone-kinds.ts';
import type { StandaloneRunState } from './standalone-state.ts';

/** One contributing run of a RunUsage `breakdown` (docs/reference/resources.md). */
export interface RunUsageBreakdownEntry {
  /** The contributing run's `object` (`parse_run`, `extract_run`, …). */
  readonly object: StandaloneKind;
  readonly id: string;
  readonly credits: number;
}

/** The interface's RunUsage. */
export interface RunUsage {
  readonly credits: number;
  /** Credits of this run and of the runs it caused. */
  readonly totalCredits: number;
  /** The runs making up `totalCredits` (here the run itself). */
  readonly breakdown: readonly RunUsageBreakdownEntry[];
  /** Pages the executor read (docflow's addition). */
  readonly pages?: number;
}

/** The fields every standalone run has. */
interface StandaloneRunBase<K extends StandaloneKind> {
  readonly object: K;
  readonly id: string;
  readonly status: StandaloneRunStatus;
  readonly output: JsonValue;
  readonly failureReason: string | null;
  readonly failureMessage: string | null;
  readonly metadata: JsonObject;
  /** The configuration used, defaults applied. */
  readonly config: JsonObject;
  readonly usage: RunUsage | null;
  readonly batchId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The interface parse run. */
export interface ParseRun extends StandaloneRunBase<'parse_run'> {
  /** Null once the file is deleted. */
  readonly file: FileSummary | null;
  /** docflow returns outputs inline; always null. */
  readonly outputUrl: null;
  readonly metrics: { readonly pageCount: number | null } | null;
}

/** What extract, classify and split runs share (the interface processor runs). */
interface ProcessorRunBase<K extends StandaloneKind> extends StandaloneRunBase<K> {
  readonly initialOutput: JsonValue;
  readonly reviewedOutput: JsonValue;
  readonly reviewed: boolean;
  readonly edited: boolean;
  readonly edits: JsonObject | null;
  /** Null for a run over a package, and once the file is deleted. */
  readonly file: FileSummary | null;
  readonly parseRunId: string | null;
  /** docflow has no dashboard; always null. */
  readonly dashboardUrl: string | null;
}

/** The interface extract run. */
export interface ExtractRun extends ProcessorRunBase<'extract_run'> {
  /** The saved extractor, null with an inline config. */
  readonly extractor: ProcessorSummary | null;
  /** The version that ran, null with an inline config. */
  readonly extractorVersion: ProcessorVersionSummary | null;
  /** A run over a package: its files in submission order (deleted ones left out); else null. */
  readonly files: readonly FileSummary[] | null;
}

/** The interface classify run. */
export interface ClassifyRun extends ProcessorRunBase<'classify_run'> {
  readonly classifier: ProcessorSummary | null;
  readonly classifierVersion: ProcessorVersionSummary | null;
}

/** The interface split run. */
export interface SplitRun extends ProcessorRunBase<'split_run'> {
  readonly splitter: ProcessorSummary | null;
  readonly splitterVersion: ProcessorVersionSummary | null;
}

/** A standalone run of any kind. */
export type StandaloneRun = ParseRun | ExtractRun | ClassifyRun | SplitRun;

/** The standalone run of each kind. */
export interface StandaloneRunOf {
  readonly parse_run: ParseRun;
  readonly extract_run: ExtractRun;
  readonly classify_run: ClassifyRun;
  readonly split_run: SplitRun;
}

/** A run's usage as the interface's RunUsage, with its own line in `breakdown`. */
function usageOf(state: StandaloneRunState): RunUsage | null {
  if (state.usage === null) return null;
  const { credits, pages } = state.usage;
  return {
    credits,
    totalCredits: credits,
    breakdown: [{ object: state.kind, id: state.id, credits }],
    ...(pages === undefined ? {} : { pages }),
  };
}

/**
 * Projects a standalone run's snapshot to its the interface resource. `present` says which files still
 * exist: a deleted file shows as `file: null` (and leaves `files`).
 */
export function toStandaloneRun(
  state: StandaloneRunState,
  present: (fileId: string) => boolean = () => true,
): StandaloneRun {
  const files = state.fileIds
    .filter(present)
    .map((id) => state.fileIndex[id])
    .filter((f): f is FileSummary => f !== undefined);
  const base = {
    id: state.id,
    status: state.status,
    output: state.status === 'PROCESSED' ? state.output : null,
    failureReason: state.status === 'FAILED' ? state.failureReason : null,
    failureMessage: state.status === 'FAILED' ? state.failureMessage : null,
    metadata: state.metadata,
    config: state.config,
    usage: usageOf(state),
    batchId: state.batchId,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
  const single = state.multifile ? null : (files[0] ?? null);
  if (state.kind === 'parse_run') {
    return {
      object: 'parse_run',
      ...base,
      file: single,
      outputUrl: null,
      metrics: state.status === 'PROCESSED' ? { pageCount: state.usage?.pages ?? null } : null,
    };
  }
  const processorRun = {
    ...base,
    initialOutput: null,
    reviewedOutput: null,
    reviewed: false,
    edited: false,
    edits: null,
    file: single,
    parseRunId: null,
    dashboardUrl: null,
  };
  const summary = state.processor?.summary ?? null;
  const version = state.processor?.version ?? null;
  switch (state.kind) {
    case 'extract_run':
      return {
        object: 'extract_run',
        ...processorRun,
        extractor: summary,
        extractorVersion: version,
        files: state.multifile ? files : null,
      };
    case 'classify_run':
      return {
        object: 'classify_run',
        ...processorRun,
        classifier: summary,
        classifierVersion: version,
      };
    case 'split_run':
      return { object: 'split_run', ...processorRun, splitter: summary, splitterVersion: version };
  }
}
