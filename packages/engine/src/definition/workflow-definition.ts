import type { JsonObject } from '@docflow/storage';
import type { StepType } from '../step-executor.ts';

/**
 * The step types the engine runs itself. They never need a registered executor
 * (docs/architecture.md: the engine keeps control flow).
 */
export const CONTROL_FLOW_STEP_TYPES = [
  'TRIGGER',
  'CONDITIONAL',
  'RULE_VALIDATION',
  'HUMAN_REVIEW',
  'COLLECT',
  'WEBHOOK_RESPONSE',
] as const satisfies readonly StepType[];

/** A step type the engine runs itself. */
export type ControlFlowStepType = (typeof CONTROL_FLOW_STEP_TYPES)[number];

/**
 * Step types that must carry a `config` before a definition is deployed (the service rejects
 * unconfigured ones with a 400). An executor may add its own type with `requiresConfig`.
 */
export const CONFIGURABLE_STEP_TYPES = [
  'EXTRACT',
  'CLASSIFY',
  'SPLIT',
  'CONDITIONAL',
  'CONDITIONAL_EXTRACT',
  'RULE_VALIDATION',
  'EXTERNAL_DATA_VALIDATION',
] as const satisfies readonly StepType[];

/** The kinds of saved processors a step can reference. */
export type ProcessorKind = 'extractor' | 'classifier' | 'splitter';

/**
 * A saved processor at a version: `"draft"`, `"latest"` or a published version such as `"1.0"`.
 * CLASSIFY and SPLIT must pin theirs (not `"latest"`), because routing ids belong to one version.
 */
export interface ProcessorReference {
  readonly id: string;
  readonly version: string;
}

/**
 * Per-step retry settings for retryable executor errors (exponential backoff with jitter).
 * Every field is optional; omitted ones take the engine's defaults.
 */
export interface RetryPolicy {
  /** Attempts in total, the first included (1 = no retry). */
  readonly maxAttempts?: number;
  /** Delay before the second attempt. */
  readonly initialIntervalMs?: number;
  /** Factor applied to the delay after each attempt (at least 1). */
  readonly backoffCoefficient?: number;
  /** Upper bound of the delay (at least `initialIntervalMs`). */
  readonly maxIntervalMs?: number;
}

/** The fields every step has, whatever its type. */
export interface StepBase<TType extends StepType> {
  /** Unique within the definition; `next[].step` and formulas refer to the step by it. */
  readonly name: string;
  readonly type: TType;
  /** Engine setting: how retryable failures of this step are retried. */
  readonly retry?: RetryPolicy;
  /** Engine setting: an attempt that runs longer is aborted through its AbortSignal. */
  readonly timeoutMs?: number;
}

/** A `next` entry that always routes. */
export interface SimpleNextEntry {
  readonly step: string;
}

/** A `next` entry of CLASSIFY and SPLIT: taken when the output's classification id matches. */
export interface ClassificationNextEntry {
  readonly step: string;
  readonly classificationId: string;
}

/** A `next` entry of CONDITIONAL: taken when the condition with this id is the first to hold. */
export interface ConditionalNextEntry {
  readonly step: string;
  readonly conditionId: string;
}

/**
 * A `next` entry of RULE_VALIDATION: `"pass"` is taken when every rule passed, `"fail"`
 * otherwise; an entry without `result` is always taken.
 */
export interface RuleValidationNextEntry {
  readonly step: string;
  readonly result?: 'pass' | 'fail';
}

/** Any `next` entry. */
export type NextEntry =
  | SimpleNextEntry
  | ClassificationNextEntry
  | ConditionalNextEntry
  | RuleValidationNextEntry;

/** One category of a classifier or splitter; exactly one per config has type `other`. */
export interface Classification {
  /** Stable id routed on (`cls_invoice`), unique within the config. */
  readonly id: string;
  /** The category (`invoice`); formulas compare against it. */
  readonly type: string;
  readonly description?: string;
}

/** One category of a splitter. */
export interface SplitClassification extends Classification {
  /** Natural-language rule for a per-sub-document identifier (merges related sub-documents). */
  readonly identifierKey?: string;
}

/** An inline extractor config; in workflows its JSON Schema is required. */
export interface InlineExtractorConfig {
  readonly schema: JsonObject;
  readonly [key: string]: unknown;
}

/** An inline classifier config (the interface's ClassifyConfig). */
export interface InlineClassifierConfig {
  readonly classifications: readonly Classification[];
  readonly [key: string]: unknown;
}

/** An inline splitter config (the interface's SplitConfig). */
export interface InlineSplitterConfig {
  readonly splitClassifications: readonly SplitClassification[];
  readonly [key: string]: unknown;
}

/** TRIGGER: where every run starts; routes to exactly one PARSE. */
export interface TriggerStep extends StepBase<'TRIGGER'> {
  readonly config?: never;
  readonly next?: readonly SimpleNextEntry[];
}

/** PARSE config; `parseConfig` is the interface's ParseConfig, checked by the PARSE executor. */
export interface ParseStepConfig {
  readonly parseConfig?: JsonObject;
}

/** PARSE: turns the path's files into chunks and blocks. */
export interface ParseStep extends StepBase<'PARSE'> {
  readonly config?: ParseStepConfig;
  readonly next?: readonly SimpleNextEntry[];
}

/** EXTRACT config: exactly one of a saved extractor or an inline config. */
export type ExtractStepConfig =
  | { readonly extractor: ProcessorReference; readonly extractorConfig?: never }
  | { readonly extractorConfig: InlineExtractorConfig; readonly extractor?: never };

/** EXTRACT: structured data from the path's files. */
export interface ExtractStep extends StepBase<'EXTRACT'> {
  readonly config?: ExtractStepConfig;
  readonly next?: readonly SimpleNextEntry[];
}

/** CLASSIFY config: exactly one of a pinned saved classifier or an inline config. */
export type ClassifyStepConfig =
  | { readonly classifier: ProcessorReference; readonly classifierConfig?: never }
  | { readonly classifierConfig: InlineClassifierConfig; readonly classifier?: never };

/** CLASSIFY: routes the path by the output's classification id. */
export interface ClassifyStep extends StepBase<'CLASSIFY'> {
  readonly config?: ClassifyStepConfig;
  readonly next?: readonly ClassificationNextEntry[];
}

/** SPLIT config: exactly one of a pinned saved splitter or an inline config. */
export type SplitStepConfig =
  | { readonly splitter: ProcessorReference; readonly splitterConfig?: never }
  | { readonly splitterConfig: InlineSplitterConfig; readonly splitter?: never };

/** SPLIT: one child file and one path per sub-document, routed by its classification id. */
export interface SplitStep extends StepBase<'SPLIT'> {
  readonly config?: SplitStepConfig;
  readonly next?: readonly ClassificationNextEntry[];
}

/** How MERGE_EXTRACT resolves fields that several upstream extractions produced. */
export const MERGE_ORDERS = [
  'confidence',
  'alphabetic',
  'first_to_execute',
  'last_to_execute',
] as const;

/** A MERGE_EXTRACT order; `confidence` when omitted. */
export type MergeOrder = (typeof MERGE_ORDERS)[number];

/** MERGE_EXTRACT: merges the outputs of upstream extract steps. */
export interface MergeExtractStep extends StepBase<'MERGE_EXTRACT'> {
  readonly config?: { readonly mergeOrder?: MergeOrder };
  readonly next?: readonly SimpleNextEntry[];
}

/** The branch kinds of a CONDITIONAL: IF first, ELSE_IF after it, at most one ELSE last. */
export const CONDITION_TYPES = ['IF', 'ELSE_IF', 'ELSE'] as const;

/** A CONDITIONAL branch kind. */
export type ConditionType = (typeof CONDITION_TYPES)[number];

/**
 * The tests a condition can apply (docs/decisions/0002-conditional-operands.md).
 * Binary: EQUALS, NOT_EQUALS, GT, GTE, LT, LTE, CONTAINS, NOT_CONTAINS.
 * Unary on `leftOperand`: IS_NULL, IS_NOT_NULL, FORMULA (`leftOperand` is a boolean formula).
 * NO_OP: the operation of an ELSE branch.
 */
export const CONDITION_OPERATIONS = [
  'EQUALS',
  'NOT_EQUALS',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'CONTAINS',
  'NOT_CONTAINS',
  'IS_NULL',
  'IS_NOT_NULL',
  'FORMULA',
  'NO_OP',
] as const;

/** A condition operation. */
export type ConditionOperation = (typeof CONDITION_OPERATIONS)[number];

/** Operations that compare `leftOperand` with `rightOperand`. */
export const BINARY_CONDITION_OPERATIONS = [
  'EQUALS',
  'NOT_EQUALS',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'CONTAINS',
  'NOT_CONTAINS',
] as const satisfies readonly ConditionOperation[];

/** Operations that only use `leftOperand`. */
export const UNARY_CONDITION_OPERATIONS = [
  'IS_NULL',
  'IS_NOT_NULL',
  'FORMULA',
] as const satisfies readonly ConditionOperation[];

/**
 * One CONDITIONAL branch. Operands are text where `{{ formula }}` parts are evaluated
 * (`{{extract1.total}}`); see docs/decisions/0002-conditional-operands.md.
 */
export interface Condition {
  /** Unique within the step; `next[].conditionId` routes on it. */
  readonly id: string;
  readonly type: ConditionType;
  /** Required on IF and ELSE_IF; absent or NO_OP on ELSE. */
  readonly operation?: ConditionOperation;
  readonly leftOperand?: string;
  /** Required by binary operations, absent otherwise. */
  readonly rightOperand?: string;
}

/** CONDITIONAL: the first condition that holds picks the branch; no branch ends the path. */
export interface ConditionalStep extends StepBase<'CONDITIONAL'> {
  readonly config?: { readonly conditions: readonly Condition[] };
  readonly next?: readonly ConditionalNextEntry[];
}

/** One rule of CONDITIONAL_EXTRACT: the first rule whose formula holds picks the extractor. */
export interface ConditionalExtractRule {
  readonly name?: string;
  readonly formula: string;
  /** Saved extractors only (no inline configs). */
  readonly extractor: ProcessorReference;
}

/** CONDITIONAL_EXTRACT: extracts with the extractor of the first matching rule. */
export interface ConditionalExtractStep extends StepBase<'CONDITIONAL_EXTRACT'> {
  /** The last rule's formula is `TRUE` (the catch-all). */
  readonly config?: { readonly rules: readonly ConditionalExtractRule[] };
  readonly next?: readonly SimpleNextEntry[];
}

/** One validation rule: a boolean formula over the run's data. */
export interface ValidationRule {
  /** Unique within the step; results are reported by it. */
  readonly name: string;
  readonly formula: string;
  readonly description?: string;
}

/** RULE_VALIDATION: evaluates every rule and routes on whether all passed. */
export interface RuleValidationStep extends StepBase<'RULE_VALIDATION'> {
  readonly config?: { readonly rules: readonly ValidationRule[] };
  readonly next?: readonly RuleValidationNextEntry[];
}

/** What happens to the run when a step with a failure behaviour fails. */
export const FAILURE_BEHAVIORS = ['CONTINUE', 'EXIT'] as const;

/** CONTINUE: the path goes on with the failure recorded; EXIT: the run fails. */
export type FailureBehavior = (typeof FAILURE_BEHAVIORS)[number];

/** The HTTP request of EXTERNAL_DATA_VALIDATION. */
export interface ExternalRequestOptions {
  /** `http:` or `https:` URL. */
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: 'application/json' | 'text/plain';
}

/** EXTERNAL_DATA_VALIDATION: sends the path's data to an HTTP endpoint. */
export interface ExternalDataValidationStep extends StepBase<'EXTERNAL_DATA_VALIDATION'> {
  /** `failureBehavior` defaults to CONTINUE. */
  readonly config?: {
    readonly requestOptions: ExternalRequestOptions;
    readonly failureBehavior?: FailureBehavior;
  };
  readonly next?: readonly SimpleNextEntry[];
}

/** FILE_CONVERSION: converts the path's files (to PDF). */
export interface FileConversionStep extends StepBase<'FILE_CONVERSION'> {
  /** `failureBehavior` defaults to EXIT. */
  readonly config?: { readonly failureBehavior?: FailureBehavior };
  readonly next?: readonly SimpleNextEntry[];
}

/** HUMAN_REVIEW: parks the path until the run is reviewed. */
export interface HumanReviewStep extends StepBase<'HUMAN_REVIEW'> {
  readonly config?: never;
  readonly next?: readonly SimpleNextEntry[];
}

/** COLLECT: waits until no live path can still reach it, then continues as one path. */
export interface CollectStep extends StepBase<'COLLECT'> {
  readonly config?: never;
  readonly next?: readonly SimpleNextEntry[];
}

/** WEBHOOK_RESPONSE config: an extra target URL and a JSONata expression shaping the body. */
export interface WebhookResponseConfig {
  /** An extra `http:` or `https:` endpoint for this step's delivery. */
  readonly url?: string;
  /** A JSONata expression evaluated against the run; without it the body is the run. */
  readonly body?: string;
}

/** WEBHOOK_RESPONSE: terminal; delivers the run's results. */
export interface WebhookResponseStep extends StepBase<'WEBHOOK_RESPONSE'> {
  readonly config?: WebhookResponseConfig;
  readonly next?: readonly [];
}

/** One step of a workflow definition, discriminated by `type`. */
export type StepDefinition =
  | TriggerStep
  | ParseStep
  | ExtractStep
  | ClassifyStep
  | SplitStep
  | MergeExtractStep
  | ConditionalStep
  | ConditionalExtractStep
  | RuleValidationStep
  | ExternalDataValidationStep
  | FileConversionStep
  | HumanReviewStep
  | CollectStep
  | WebhookResponseStep;

/** The step definition of one type. */
export type StepDefinitionOf<T extends StepType> = Extract<StepDefinition, { readonly type: T }>;

/** A workflow definition: its steps, referring to each other by name. */
export interface WorkflowDefinition {
  readonly steps: readonly StepDefinition[];
}
