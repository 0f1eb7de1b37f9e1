import type { ClassificationConfig, ExtractionConfig, SplitClassification, SplitterConfig } from './processor-config.ts';
import type { ClassifyOutput, ExtractOutput, ProposedSplit, Provider, ProviderUsage } from './provider.ts';
import type { DocumentView } from './view/document-view.ts';
/** A processor's domain failure (a value). */
export interface ProcessorFailure {
    readonly failure: {
        readonly reason: string;
        readonly message: string;
    };
}
/** A processor's success. */
export interface ProcessorSuccess<T> {
    readonly output: T;
    readonly usage: ProviderUsage;
}
/** The outcome of a processor run. */
export type ProcessorOutcome<T> = ProcessorSuccess<T> | ProcessorFailure;
/** True when an outcome is a failure. */
export declare function isProcessorFailure<T>(outcome: ProcessorOutcome<T>): outcome is ProcessorFailure;
/** Problems of a classification list: ids unique, types present, exactly one `other`. */
export declare function checkClassifications(list: readonly {
    id?: unknown;
    type?: unknown;
}[] | undefined, path: string): string[];
/** Extracts with `config.schema`, conformed to the schema. */
export declare function runExtraction(provider: Provider, view: DocumentView, config: ExtractionConfig, signal?: AbortSignal): Promise<ProcessorOutcome<ExtractOutput>>;
/** Classifies; the answer must name a configured classification. */
export declare function runClassification(provider: Provider, view: DocumentView, config: ClassificationConfig, signal?: AbortSignal): Promise<ProcessorOutcome<ClassifyOutput>>;
/**
 * Holds proposed splits to the contract: per file, sorted, clamped to the file's pages, gaps
 * given to the preceding split (or the next one at the start), overlaps cut; unknown
 * classification ids become `other`.
 */
export declare function normalizeSplits(view: DocumentView, proposed: readonly ProposedSplit[], classifications: readonly SplitClassification[]): ProposedSplit[];
/** Splits; the answer is normalized to contiguous splits covering every page. */
export declare function runSplit(provider: Provider, view: DocumentView, config: SplitterConfig, signal?: AbortSignal): Promise<ProcessorOutcome<ProposedSplit[]>>;
//# sourceMappingURL=run-processor.d.ts.map