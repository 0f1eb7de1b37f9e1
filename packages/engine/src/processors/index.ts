export { checkGenerateRequest } from './check-processor-input.ts';
export { fieldsToJsonSchema, withJsonSchema } from './legacy-fields-schema.ts';
export {
  type ConfigJsonSchema,
  classifierConfigSchema,
  extractorConfigSchema,
  MAX_CLASSIFICATIONS,
  splitterConfigSchema,
} from './processor-config-schemas.ts';
export { ProcessorIssueCode } from './processor-issue-code.ts';
export {
  kindOfProcessorType,
  PROCESSOR_KINDS,
  type ProcessorKindSpec,
  type ProcessorType,
} from './processor-kinds.ts';
export {
  createProcessorResolution,
  type ProcessorRef,
  type ProcessorResolutionService,
  type ProcessorServices,
  processorReferencesOf,
} from './processor-resolution.ts';
export type {
  CreateProcessorInput,
  GenerateSchemaRequest,
  LegacyProcessorVersion,
  Processor,
  ProcessorSummary,
  ProcessorVersionSummary,
  PublishProcessorInput,
  PublishProcessorResult,
  ResolvedProcessor,
  UpdateProcessorInput,
} from './processor-resource.ts';
export {
  formatVersion,
  nextVersion,
  parseVersion,
  type ReleaseType,
  type VersionNumber,
} from './processor-version.ts';
export { classificationIdsOf, validateProcessorConfig } from './validate-processor-config.ts';
