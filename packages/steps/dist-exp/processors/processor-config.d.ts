/**
 * The processor configurations of the interface ("Legacy processor version and configs", SplitConfig)
 * as the processors read them. Every field beyond the ones the processors use is passed through.
 */
import type { ParseConfig } from '../parse/parse-output.ts';
/** A JSON Schema object (draft 2020-12 / 07 subset used by extractors). */
export type JsonSchema = {
    readonly [key: string]: unknown;
};
/** The interface's PageRangesItems. */
export interface ProcessorPageRange {
    readonly start: number;
    readonly end?: number;
}
/** One classification of a classifier (`type` `other` is the fallback). */
export interface Classification {
    readonly id: string;
    readonly type: string;
    readonly description?: string;
}
/** One split classification of a splitter. */
export interface SplitClassification extends Classification {
    /** Natural-language rule naming the sub-document identifier ("the invoice number"). */
    readonly identifierKey?: string;
}
/** The interface's LegacyClassificationConfig (and the ClassifyConfig of inline workflow steps). */
export interface ClassificationConfig {
    readonly type?: 'CLASSIFY';
    readonly classifications: readonly Classification[];
    readonly baseProcessor?: 'classification_performance' | 'classification_light';
    readonly baseVersion?: string;
    /** Free-text rules; their words count towards the classifications they mention. */
    readonly classificationRules?: string;
    readonly advancedOptions?: {
        readonly context?: 'default' | 'max';
        readonly advancedMultimodalEnabled?: boolean;
        readonly pageRanges?: readonly ProcessorPageRange[];
        readonly fixedPageLimit?: number;
    };
    readonly parser?: ParseConfig;
    /** docflow: below this confidence the `other` classification is chosen (default 0.35). */
    readonly confidenceThreshold?: number;
}
/** The interface's SplitConfig / LegacySplitterConfig. */
export interface SplitterConfig {
    readonly type?: 'SPLITTER';
    readonly splitClassifications: readonly SplitClassification[];
    readonly baseProcessor?: 'splitting_performance' | 'splitting_light';
    readonly baseVersion?: string;
    readonly splitRules?: string;
    readonly advancedOptions?: {
        readonly splitIdentifierRules?: string;
        readonly splitExcelDocumentsBySheetEnabled?: boolean;
        readonly pageRanges?: readonly ProcessorPageRange[];
        readonly splitMethod?: 'high_precision' | 'low_latency';
        readonly fixedPageLimit?: number;
    };
    readonly parser?: ParseConfig;
    readonly parseConfig?: ParseConfig;
}
/** The interface's ExtractAdvancedOptions (the fields docflow's processors honour are typed). */
export interface ExtractAdvancedOptions {
    readonly citationsEnabled?: boolean;
    readonly pageRanges?: readonly ProcessorPageRange[];
    /** 0-based sheet ranges, `end` at least `start`. */
    readonly excelSheetRanges?: readonly {
        readonly start: number;
        readonly end: number;
    }[];
    readonly reviewAgent?: {
        readonly enabled?: boolean;
    };
    readonly currentDateEnabled?: boolean;
    readonly [key: string]: unknown;
}
/** The interface's LegacyExtractionConfig with a JSON `schema` (the deprecated `fields` are not read). */
export interface ExtractionConfig {
    readonly type?: 'EXTRACT';
    readonly baseProcessor?: 'extraction_performance' | 'extraction_light' | 'extraction_operator';
    readonly baseVersion?: string;
    readonly extractionRules?: string;
    readonly schema: JsonSchema;
    readonly advancedOptions?: ExtractAdvancedOptions;
    readonly parser?: ParseConfig;
}
/** A reference to a saved processor version. */
export interface ProcessorReference {
    readonly id: string;
    readonly version: string;
}
/** The three processor kinds. */
export type ProcessorKind = 'EXTRACT' | 'CLASSIFY' | 'SPLITTER';
/** Configuration of each processor kind. */
export interface ProcessorConfigByKind {
    readonly EXTRACT: ExtractionConfig;
    readonly CLASSIFY: ClassificationConfig;
    readonly SPLITTER: SplitterConfig;
}
/**
 * Resolves a saved processor reference to its configuration; injected by the engine, which owns
 * the extractor, classifier and splitter resources (`engine.processors.resolveProcessor` fits).
 * Throw or reject to report an unknown one. The executors check the shape of what comes back
 * (a `schema` for EXTRACT, `classifications` for CLASSIFY, `splitClassifications` for SPLITTER).
 */
export type ResolveProcessor = (kind: ProcessorKind, reference: ProcessorReference) => Promise<Readonly<Record<string, unknown>>>;
//# sourceMappingURL=processor-config.d.ts.map