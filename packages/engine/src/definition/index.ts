export type { AjvIssueOptions } from '../validation/ajv-issues.ts';
export { ajvErrorsToIssues, appendPath, pointerToPath } from '../validation/ajv-issues.ts';
export type { ExecutorConfigContract, ExecutorLookup } from './check-executors.ts';
export type { ProcessorResolution, ProcessorResolver } from './check-step-configs.ts';
export type {
  OperandParseResult,
  OperandPart,
  ParsedOperand,
} from './conditional-operand.ts';
export { parseOperand } from './conditional-operand.ts';
export { DefinitionIssueCode } from './definition-issue-code.ts';
export {
  checkDefinitionSchema,
  DEFINITION_LIMITS,
  workflowDefinitionSchema,
} from './definition-schema.ts';
export type { ValidateDefinitionOptions } from './validate-definition.ts';
export { validateWorkflowDefinition } from './validate-definition.ts';
export type {
  Classification,
  ClassificationNextEntry,
  ClassifyStep,
  ClassifyStepConfig,
  CollectStep,
  Condition,
  ConditionalExtractRule,
  ConditionalExtractStep,
  ConditionalNextEntry,
  ConditionalStep,
  ConditionOperation,
  ConditionType,
  ControlFlowStepType,
  ExternalDataValidationStep,
  ExternalRequestOptions,
  ExtractStep,
  ExtractStepConfig,
  FailureBehavior,
  FileConversionStep,
  HumanReviewStep,
  InlineClassifierConfig,
  InlineExtractorConfig,
  InlineSplitterConfig,
  MergeExtractStep,
  MergeOrder,
  NextEntry,
  ParseStep,
  ParseStepConfig,
  ProcessorKind,
  ProcessorReference,
  RetryPolicy,
  RuleValidationNextEntry,
  RuleValidationStep,
  SimpleNextEntry,
  SplitClassification,
  SplitStep,
  SplitStepConfig,
  StepBase,
  StepDefinition,
  StepDefinitionOf,
  TriggerStep,
  ValidationRule,
  WebhookResponseConfig,
  WebhookResponseStep,
  WorkflowDefinition,
} from './workflow-definition.ts';
export {
  BINARY_CONDITION_OPERATIONS,
  CONDITION_OPERATIONS,
  CONDITION_TYPES,
  CONFIGURABLE_STEP_TYPES,
  CONTROL_FLOW_STEP_TYPES,
  FAILURE_BEHAVIORS,
  MERGE_ORDERS,
  UNARY_CONDITION_OPERATIONS,
} from './workflow-definition.ts';
export type { WorkflowGraph } from './workflow-graph.ts';
export { buildWorkflowGraph } from './workflow-graph.ts';
