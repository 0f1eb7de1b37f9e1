import type { ProcessorKind } from '../definition/workflow-definition.ts';
import type { StepType } from '../step-executor.ts';

/** The kinds of standalone runs: the interface's parse, extract, classify and split runs. */
export const STANDALONE_KINDS = ['parse_run', 'extract_run', 'classify_run', 'split_run'] as const;
/** A standalone run kind (its `object` name and its storage `kind`). */
export type StandaloneKind = (typeof STANDALONE_KINDS)[number];

/** What differs between the kinds of standalone runs. */
export interface StandaloneKindSpec {
  readonly kind: StandaloneKind;
  /** The interface id prefix of the run (`pr_`, `exr_`, `clr_`, `splr_`). */
  readonly prefix: string;
  /** Id prefix of a batch of such runs (`bpar_` for parse runs, `bpr_` for processor runs). */
  readonly batchPrefix: string;
  /** The step type whose executor does the work. */
  readonly stepType: StepType;
  /** The processor kind a saved-processor run references (none for parse runs). */
  readonly processor?: ProcessorKind;
  /** The step config key of an inline config (`parseConfig`, `extractorConfig`, …). */
  readonly inlineKey: string;
  /** Event group of a finished batch (`batch_parse_run`, `batch_processor_run`). */
  readonly batchEvent: string;
  /** Where a finished batch's record (also its once-only event marker) is kept. */
  readonly batchCollection: 'parseRuns' | 'processorRuns';
  /** Words for messages. */
  readonly label: string;
}

/** The kinds by name. */
export const STANDALONE_KIND_SPECS: Readonly<Record<StandaloneKind, StandaloneKindSpec>> = {
  parse_run: {
    kind: 'parse_run',
    prefix: 'pr_',
    batchPrefix: 'bpar_',
    stepType: 'PARSE',
    inlineKey: 'parseConfig',
    batchEvent: 'batch_parse_run',
    batchCollection: 'parseRuns',
    label: 'parse run',
  },
  extract_run: {
    kind: 'extract_run',
    prefix: 'exr_',
    batchPrefix: 'bpr_',
    stepType: 'EXTRACT',
    processor: 'extractor',
    inlineKey: 'extractorConfig',
    batchEvent: 'batch_processor_run',
    batchCollection: 'processorRuns',
    label: 'extract run',
  },
  classify_run: {
    kind: 'classify_run',
    prefix: 'clr_',
    batchPrefix: 'bpr_',
    stepType: 'CLASSIFY',
    processor: 'classifier',
    inlineKey: 'classifierConfig',
    batchEvent: 'batch_processor_run',
    batchCollection: 'processorRuns',
    label: 'classify run',
  },
  split_run: {
    kind: 'split_run',
    prefix: 'splr_',
    batchPrefix: 'bpr_',
    stepType: 'SPLIT',
    processor: 'splitter',
    inlineKey: 'splitterConfig',
    batchEvent: 'batch_processor_run',
    batchCollection: 'processorRuns',
    label: 'split run',
  },
};

/** The kind of a stored run, when it is a standalone run. */
export function standaloneKindOf(kind: string): StandaloneKind | undefined {
  return (STANDALONE_KINDS as readonly string[]).includes(kind)
    ? (kind as StandaloneKind)
    : undefined;
}
