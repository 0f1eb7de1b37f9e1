export type { BuiltinStepsOptions } from './builtin-steps.ts';
export { builtinSteps } from './builtin-steps.ts';
export type { ClassifyStepConfig } from './executors/classify-step.ts';
export { classifyStep } from './executors/classify-step.ts';
export type {
  ConditionalExtractRule,
  ConditionalExtractStepConfig,
} from './executors/conditional-extract-step.ts';
export { conditionalExtractStep } from './executors/conditional-extract-step.ts';
export type { ExternalDataValidationStepConfig } from './executors/external-data-validation-step.ts';
export {
  EXTERNAL_VALIDATION_SECRET_KEY,
  externalDataValidationStep,
} from './executors/external-data-validation-step.ts';
export type { ExtractStepConfig } from './executors/extract-step.ts';
export { extractStep } from './executors/extract-step.ts';
export type { FileConversion, FileConversionStepConfig } from './executors/file-conversion-step.ts';
export { fileConversionStep } from './executors/file-conversion-step.ts';
export type { MergeExtractStepConfig, MergeOrder } from './executors/merge-extract-step.ts';
export { mergeExtractOutputs, mergeExtractStep } from './executors/merge-extract-step.ts';
export type { ParseFallback, ProcessorStepOptions } from './executors/processor-step-options.ts';
export { processorSteps } from './executors/processor-steps.ts';
export type { ProcessorUsage } from './executors/processor-usage.ts';
export type { SplitItem, SplitStepConfig } from './executors/split-step.ts';
export { splitStep } from './executors/split-step.ts';
export { DEFAULT_PARSE_LIMITS, type ParseLimits, type PdfWorkers } from './parse/format-context.ts';
export { closeOcrPool, ocrPoolSize } from './parse/ocr/ocr-pool.ts';
export type { ParseProgress } from './parse/page-progress.ts';
export type {
  ParseDocumentFailure,
  ParseDocumentOptions,
  ParseDocumentResult,
  ParseDocumentSuccess,
} from './parse/parse-document.ts';
export { parseDocument } from './parse/parse-document.ts';
export type {
  AgenticBlockOptions,
  BarcodeBlockOptions,
  BarcodeDetails,
  Block,
  BlockDetails,
  BlockMetadata,
  BlockPage,
  BlockSheet,
  BlockType,
  BoundingBox,
  CellFormatting,
  Chunk,
  ChunkingStrategy,
  ChunkingStrategyType,
  ChunkMetadata,
  EmptyDetails,
  ExcelParsingMode,
  FigureBlockOptions,
  FigureDetails,
  FigureType,
  FormattingDetection,
  FormulaDetails,
  KeyValueDetails,
  OcrWord,
  OutputPageMetadata,
  PageRange,
  ParseBlockOptions,
  ParseConfig,
  ParseConfigAdvancedOptions,
  ParseEngine,
  ParseFailureReason,
  ParseOutputMetadata,
  ParseRunMetrics,
  ParseRunOutput,
  ParseTarget,
  Point,
  TableCellDetails,
  TableDetails,
  TextDetails,
  ToggleBlockOptions,
} from './parse/parse-output.ts';
export type { ParseStepConfig, ParseStepOptions, ParseStepProgress } from './parse/parse-step.ts';
export { parseStep } from './parse/parse-step.ts';
export { conformToSchema } from './processors/conform-to-schema.ts';
export type { ModelProviderOptions } from './processors/model/model-provider.ts';
export { modelProvider } from './processors/model/model-provider.ts';
export { offlineProvider } from './processors/offline/offline-provider.ts';
export type {
  Classification,
  ClassificationConfig,
  ExtractAdvancedOptions,
  ExtractionConfig,
  JsonSchema,
  ProcessorConfigByKind,
  ProcessorKind,
  ProcessorPageRange,
  ProcessorReference,
  ResolveProcessor,
  SplitClassification,
  SplitterConfig,
} from './processors/processor-config.ts';
export type {
  Citation,
  ClassifyOutput,
  ClassifyResult,
  ExtractOutput,
  ExtractResult,
  ExtractValue,
  FieldMetadata,
  Insight,
  ProposedSplit,
  Provider,
  ProviderCallOptions,
  ProviderUsage,
  SplitResult,
} from './processors/provider.ts';
export { ProviderAnswerError } from './processors/provider.ts';
export { textToParseOutput } from './processors/text-parse-output.ts';
export { buildDocumentView } from './processors/view/build-view.ts';
export type {
  DocumentCell,
  DocumentField,
  DocumentLine,
  DocumentPage,
  DocumentRegion,
  DocumentTable,
  DocumentView,
  ParsedFile,
} from './processors/view/document-view.ts';
