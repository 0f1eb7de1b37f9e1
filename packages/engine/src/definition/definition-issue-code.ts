/**
 * Stable codes of the ValidationIssues a workflow definition can have. Every code is documented
 * in `docs/errors/definitions.md` (a test keeps the two in sync).
 */
export const DefinitionIssueCode = {
  /** The definition does not match the JSON Schema (a missing, extra or mistyped field). */
  SCHEMA: 'SCHEMA',
  /** Two steps have the same name. */
  DUPLICATE_STEP_NAME: 'DUPLICATE_STEP_NAME',
  /** A step uses a name that formulas reserve (`metadata`). */
  RESERVED_STEP_NAME: 'RESERVED_STEP_NAME',
  /** The definition has no TRIGGER, or more than one. */
  TRIGGER_COUNT: 'TRIGGER_COUNT',
  /** The TRIGGER does not route to exactly one PARSE step. */
  TRIGGER_TARGET: 'TRIGGER_TARGET',
  /** A `next[].step` names no step of the definition. */
  UNKNOWN_STEP: 'UNKNOWN_STEP',
  /** The same `next` entry appears twice in one step. */
  DUPLICATE_NEXT_ENTRY: 'DUPLICATE_NEXT_ENTRY',
  /** The steps form a cycle. */
  CYCLE: 'CYCLE',
  /** No route leads from the TRIGGER to this step. */
  UNREACHABLE_STEP: 'UNREACHABLE_STEP',
  /** A `next[].classificationId` is not an id of the step's classifications. */
  UNKNOWN_CLASSIFICATION: 'UNKNOWN_CLASSIFICATION',
  /** A `next[].conditionId` is not an id of the step's conditions. */
  UNKNOWN_CONDITION: 'UNKNOWN_CONDITION',
  /** Two classifications (or split classifications) of a config share an id. */
  DUPLICATE_CLASSIFICATION_ID: 'DUPLICATE_CLASSIFICATION_ID',
  /** A classifier or splitter config does not have exactly one classification of type `other`. */
  OTHER_CLASSIFICATION_COUNT: 'OTHER_CLASSIFICATION_COUNT',
  /** Two conditions of a CONDITIONAL share an id. */
  DUPLICATE_CONDITION_ID: 'DUPLICATE_CONDITION_ID',
  /** CONDITIONAL branches are out of order: IF first, ELSE_IF after, at most one ELSE, last. */
  CONDITION_ORDER: 'CONDITION_ORDER',
  /** A condition's operation does not fit its type or its operands. */
  CONDITION_OPERANDS: 'CONDITION_OPERANDS',
  /** Two rules of a RULE_VALIDATION step share a name. */
  DUPLICATE_RULE_NAME: 'DUPLICATE_RULE_NAME',
  /** The last rule of a CONDITIONAL_EXTRACT step is not the `TRUE` catch-all. */
  LAST_RULE_NOT_TRUE: 'LAST_RULE_NOT_TRUE',
  /** A formula (a rule, or a `{{ }}` part of a condition operand) does not parse. */
  FORMULA_PARSE_ERROR: 'FORMULA_PARSE_ERROR',
  /** A formula variable names neither a step of the definition nor `metadata`. */
  UNKNOWN_VARIABLE: 'UNKNOWN_VARIABLE',
  /** A formula variable names a step that never runs before the formula's step. */
  VARIABLE_NOT_UPSTREAM: 'VARIABLE_NOT_UPSTREAM',
  /** A WEBHOOK_RESPONSE `body` is not a valid JSONata expression. */
  JSONATA_PARSE_ERROR: 'JSONATA_PARSE_ERROR',
  /** An inline extractor's `schema` is not a valid JSON Schema (draft-07). */
  INVALID_JSON_SCHEMA: 'INVALID_JSON_SCHEMA',
  /** CLASSIFY or SPLIT references a processor at `"latest"` (or the resolver says unpinned). */
  VERSION_NOT_PINNED: 'VERSION_NOT_PINNED',
  /** The processor resolver does not know the referenced processor or version. */
  PROCESSOR_NOT_FOUND: 'PROCESSOR_NOT_FOUND',
  /** A MERGE_EXTRACT step has no extract step upstream. */
  NOTHING_TO_MERGE: 'NOTHING_TO_MERGE',
  /** `retry.maxIntervalMs` is below `retry.initialIntervalMs`. */
  RETRY_INVALID: 'RETRY_INVALID',
  /** A config does not match its executor's `configSchema`. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** A configurable step has no config (required to deploy). */
  CONFIG_REQUIRED: 'CONFIG_REQUIRED',
  /** No executor is registered for the step's type. */
  NO_EXECUTOR: 'NO_EXECUTOR',
} as const;

/** A {@link DefinitionIssueCode}. */
export type DefinitionIssueCode = (typeof DefinitionIssueCode)[keyof typeof DefinitionIssueCode];
