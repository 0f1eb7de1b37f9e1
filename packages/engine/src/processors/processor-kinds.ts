import type { ProcessorKind } from '../definition/workflow-definition.ts';

/** The interface's LegacyProcessorVersion `processorType` of each processor kind. */
export type ProcessorType = 'EXTRACT' | 'CLASSIFY' | 'SPLITTER';

/** What differs between extractors, classifiers and splitters (the interface names and prefixes). */
export interface ProcessorKindSpec {
  readonly kind: ProcessorKind;
  /** The resource's id prefix (`ex_`, `cl_`, `spl_`). */
  readonly idPrefix: string;
  /** LegacyProcessorVersion id prefix: the interface gives `exv_` for every kind. */
  readonly versionIdPrefix: 'exv_';
  /** Prefix of the version summary id embedded in runs (`exv_`, `clv_`, `splv_`). */
  readonly versionSummaryPrefix: string;
  readonly processorType: ProcessorType;
  /** Display word in messages. */
  readonly label: string;
}

/** The three processor kinds, by kind. */
export const PROCESSOR_KINDS: Readonly<Record<ProcessorKind, ProcessorKindSpec>> = {
  extractor: {
    kind: 'extractor',
    idPrefix: 'ex_',
    versionIdPrefix: 'exv_',
    versionSummaryPrefix: 'exv_',
    processorType: 'EXTRACT',
    label: 'extractor',
  },
  classifier: {
    kind: 'classifier',
    idPrefix: 'cl_',
    versionIdPrefix: 'exv_',
    versionSummaryPrefix: 'clv_',
    processorType: 'CLASSIFY',
    label: 'classifier',
  },
  splitter: {
    kind: 'splitter',
    idPrefix: 'spl_',
    versionIdPrefix: 'exv_',
    versionSummaryPrefix: 'splv_',
    processorType: 'SPLITTER',
    label: 'splitter',
  },
};

/** The kind of a `processorType` (`EXTRACT` → `extractor`), or undefined. */
export function kindOfProcessorType(type: string): ProcessorKind | undefined {
  for (const spec of Object.values(PROCESSOR_KINDS)) {
    if (spec.processorType === type) return spec.kind;
  }
  return undefined;
}
