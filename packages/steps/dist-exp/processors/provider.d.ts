/**
 * The `Provider` contract: what classifies, splits and extracts a {@link DocumentView}. docflow
 * ships two: {@link offlineProvider} (deterministic text heuristics, the default) and
 * {@link modelProvider} (any OpenAI-compatible chat-completions endpoint). Plug in another by
 * implementing these three methods: read the view, honour the signal, return plain data. The
 * executors validate and repair what a provider returns, so a provider may be approximate but
 * never needs to know about workflows.
 */
import type { Point } from '../parse/parse-output.ts';
import type { ClassificationConfig, ExtractionConfig, JsonSchema, SplitterConfig } from './processor-config.ts';
import type { DocumentView } from './view/document-view.ts';
/** What a provider call consumed. */
export interface ProviderUsage {
    /** Pages read. */
    readonly pages: number;
    /** Model tokens, when a model was called. */
    readonly inputTokens?: number;
    readonly outputTokens?: number;
}
/** Options of every provider call. */
export interface ProviderCallOptions {
    /** Abort the call (run cancelled, step timed out). */
    readonly signal?: AbortSignal;
}
/** An insight attached to an output (the interface's `insights`). */
export interface Insight {
    readonly type: 'reasoning' | 'issue' | 'review_summary';
    readonly content: string;
}
/** The interface's ClassifyOutput. */
export interface ClassifyOutput {
    /** The chosen classification's id (routing key). */
    readonly id: string;
    /** The chosen classification's type. */
    readonly type: string;
    /** 0..1. */
    readonly confidence: number;
    readonly insights: readonly Insight[];
}
/** A provider's classification. */
export interface ClassifyResult {
    readonly output: ClassifyOutput;
    readonly usage: ProviderUsage;
}
/** One split as a provider proposes it (the executor adds `id` and `fileId`). */
export interface ProposedSplit {
    readonly classificationId: string;
    readonly type: string;
    /** 1-based, inclusive, in the numbering of the view's pages. */
    readonly startPage: number;
    readonly endPage: number;
    readonly identifier: string;
    readonly observation: string;
    /** 0..1. */
    readonly confidence: number;
    /** The file the pages belong to, on multi-file views. */
    readonly fileId?: string;
}
/** A provider's split: contiguous splits covering every page of the view, in order. */
export interface SplitResult {
    readonly splits: readonly ProposedSplit[];
    readonly usage: ProviderUsage;
}
/** The interface's Citation. */
export interface Citation {
    /** The cited file on multi-file runs (absent, or undefined, otherwise). */
    readonly fileId?: string | undefined;
    readonly page: {
        readonly number: number;
        readonly width: number;
        readonly height: number;
    };
    readonly referenceText: string | null;
    readonly polygon: readonly Point[];
}
/** The interface's ExtractOutputMetadata of one field path, plus docflow's `confidence`. */
export interface FieldMetadata {
    readonly ocrConfidence: number | null;
    readonly logprobsConfidence: number | null;
    /**
     * docflow (additive): how sure the provider is of this value, 0..1. The offline provider
     * reports the strength of the label match; MERGE_EXTRACT's `confidence` order reads it.
     */
    readonly confidence: number | null;
    readonly citations: readonly Citation[];
    readonly insights?: readonly Insight[];
}
/** A JSON value (what extraction produces). */
export type ExtractValue = string | number | boolean | null | readonly ExtractValue[] | {
    readonly [key: string]: ExtractValue;
};
/** The interface's ExtractOutput: the value and metadata by field path (`line_items[0].amount`). */
export interface ExtractOutput {
    readonly value: {
        readonly [key: string]: ExtractValue;
    };
    readonly metadata: {
        readonly [path: string]: FieldMetadata;
    };
}
/** A provider's extraction (validated and repaired against the schema by the caller). */
export interface ExtractResult {
    readonly output: ExtractOutput;
    readonly usage: ProviderUsage;
}
/**
 * Thrown by a provider whose answer cannot be used at all (not JSON, not an object): the
 * processor fails with POST_PROCESSING_FAILURE instead of INTERNAL_ERROR.
 */
export declare class ProviderAnswerError extends Error {
    readonly name = "ProviderAnswerError";
}
/** The provider contract. */
export interface Provider {
    /** A short name for logs and usage (`offline`, `model:gpt-4o-mini`). */
    readonly name: string;
    classify(doc: DocumentView, config: ClassificationConfig, options?: ProviderCallOptions): Promise<ClassifyResult>;
    extract(doc: DocumentView, schema: JsonSchema, config: ExtractionConfig, options?: ProviderCallOptions): Promise<ExtractResult>;
    split(doc: DocumentView, config: SplitterConfig, options?: ProviderCallOptions): Promise<SplitResult>;
}
//# sourceMappingURL=provider.d.ts.map