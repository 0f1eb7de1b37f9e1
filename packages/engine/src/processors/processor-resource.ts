import type { JsonObject } from '@docflow/storage';
import type { CreatedBy } from '../created-by.ts';
import type { ProcessorKind } from '../definition/workflow-definition.ts';
import type { ProcessorType } from './processor-kinds.ts';

/**
 * The interface's LegacyProcessorVersion: a published snapshot of a processor's config (or the draft,
 * with `version: "draft"`). Published versions never change.
 */
export interface LegacyProcessorVersion {
  readonly object: 'document_processor_version';
  /** Prefix `exv_` for every kind, as the interface gives it. */
  readonly id: string;
  readonly processorId: string;
  readonly processorType: ProcessorType;
  /** `"1.0"`, `"1.1"`, `"2.0"`, …, or `"draft"`. */
  readonly version: string;
  readonly config: JsonObject;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The processor's name when the version was published. */
  readonly processorName?: string;
  readonly description?: string;
}

/** The interface's SplitterSummary, and its extractor and classifier counterparts (embedded in runs). */
export interface ProcessorSummary {
  readonly object: ProcessorKind;
  /** Prefix `ex_`, `cl_` or `spl_`. */
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An extractor, classifier or splitter: its draft config and its newest published version. */
export interface Processor extends ProcessorSummary {
  /** The draft's config; `update` changes it, `publish` snapshots it. */
  readonly config: JsonObject;
  /** The newest published version, or null before the first publish. */
  readonly latestVersion: LegacyProcessorVersion | null;
}

/**
 * The interface's SplitterVersionSummary and its extractor and classifier counterparts, embedded in
 * runs (`splitterVersion`). Its id is the version's id with the kind's prefix (`exv_`, `clv_`,
 * `splv_`); IDs are opaque.
 */
export interface ProcessorVersionSummary {
  readonly object: 'extractor_version' | 'classifier_version' | 'splitter_version';
  readonly id: string;
  readonly description: string | null;
  /** `"draft"` for the draft. */
  readonly version: string;
  /** The processor's id, under the key of its kind. */
  readonly extractorId?: string;
  readonly classifierId?: string;
  readonly splitterId?: string;
  readonly createdAt: string;
  readonly createdBy: CreatedBy | null;
}

/** The saved processor a run used: its summary and the version that ran (embedded in runs). */
export interface ProcessorUsed {
  readonly summary: ProcessorSummary;
  readonly version: ProcessorVersionSummary;
}

/** `generate` of extractor creation: a schema drafted from sample files by a model. */
export interface GenerateSchemaRequest {
  /** 1 to 5 sample files, by id or public URL. */
  readonly files: readonly ({ readonly id: string } | { readonly url: string })[];
  /** Up to 2500 characters. */
  readonly instructions?: string;
}

/** Input of `create`. */
export interface CreateProcessorInput {
  readonly name: string;
  /** The draft config; a minimal valid one when omitted (see the package README). */
  readonly config?: JsonObject;
  /** Extractors only: start from this extractor's draft config. */
  readonly cloneExtractorId?: string;
  /** Extractors only: draft the JSON schema from sample files (needs a schema generator). */
  readonly generate?: GenerateSchemaRequest;
}

/** Input of `update`: only sent fields change. */
export interface UpdateProcessorInput {
  readonly name?: string;
  /** Replaces the draft config. */
  readonly config?: JsonObject;
}

/** The interface's POST /processors/{id}/publish body. */
export interface PublishProcessorInput {
  readonly releaseType: 'major' | 'minor';
  readonly description?: string;
  /** Published instead of the draft (the draft is left as it is); must fit the processor's kind. */
  readonly config?: JsonObject;
}

/** The interface publish response. */
export interface PublishProcessorResult {
  readonly success: true;
  readonly processorVersion: LegacyProcessorVersion;
}

/** A saved processor reference resolved to one version. */
export interface ResolvedProcessor {
  readonly processor: ProcessorSummary;
  /** The version used (the draft when `"draft"` was asked, or `"latest"` with nothing published). */
  readonly version: LegacyProcessorVersion;
  /** The summary runs embed (`extractorVersion`, `classifierVersion`, `splitterVersion`). */
  readonly versionSummary: ProcessorVersionSummary;
  readonly config: JsonObject;
}
