import type { ValidateFunction } from 'ajv';
import type { ValidationIssue } from '../errors.ts';
import { STEP_TYPES, type StepType } from '../step-executor.ts';
import { ajvErrorsToIssues } from '../validation/ajv-issues.ts';
import { RESERVED_NAMES } from '../validation/json-input.ts';
import { compileSchema } from '../validation/json-schema.ts';
import { aStep } from './describe-step-type.ts';
import { CONDITION_OPERATIONS, CONDITION_TYPES } from './workflow-definition.ts';

/** Size limits of a definition, so that validating and running one stays bounded. */
export const DEFINITION_LIMITS = {
  steps: 500,
  stepNameLength: 128,
  nextEntries: 200,
  classifications: 500,
  conditions: 100,
  rules: 200,
  formulaLength: 10_000,
  idLength: 200,
  urlLength: 2048,
  maxTimeoutMs: 86_400_000,
  maxRetryAttempts: 100,
} as const;

const L = DEFINITION_LIMITS;

/** Step and rule names become object keys (a run's outputs by step): never a reserved name. */
const stepName = {
  type: 'string',
  minLength: 1,
  maxLength: L.stepNameLength,
  not: { enum: RESERVED_NAMES },
  description: 'a name other than __proto__, constructor and prototype',
} as const;
const id = { type: 'string', minLength: 1, maxLength: L.idLength } as const;
const text = { type: 'string', maxLength: L.formulaLength } as const;
const formula = { type: 'string', minLength: 1, maxLength: L.formulaLength } as const;
const httpUrl = {
  type: 'string',
  maxLength: L.urlLength,
  pattern: '^https?://\\S+$',
  description: 'an http: or https: URL',
} as const;

/** A retry policy's fields and ranges: a step's `retry`, and `createEngine({ retry })`. */
export const retryPolicySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxAttempts: { type: 'integer', minimum: 1, maximum: L.maxRetryAttempts },
    initialIntervalMs: { type: 'integer', minimum: 0, maximum: L.maxTimeoutMs },
    backoffCoefficient: { type: 'number', minimum: 1, maximum: 100 },
    maxIntervalMs: { type: 'integer', minimum: 0, maximum: L.maxTimeoutMs },
  },
} as const;

const nextOf = <const TProperties extends Record<string, unknown>>(
  required: readonly string[],
  properties: TProperties,
) =>
  ({
    type: 'array',
    maxItems: L.nextEntries,
    items: {
      type: 'object',
      required: ['step', ...required],
      additionalProperties: false,
      properties: { step: stepName, ...properties },
    },
  }) as const;

const simpleNext = nextOf([], {});
const classificationNext = nextOf(['classificationId'], { classificationId: id });
const conditionalNext = nextOf(['conditionId'], { conditionId: id });
const ruleValidationNext = nextOf([], { result: { enum: ['pass', 'fail'] } });
const terminalNext = {
  type: 'array',
  maxItems: 0,
  description: 'empty: WEBHOOK_RESPONSE is terminal',
} as const;

const noConfig = false;

/**
 * The config of a step an executor runs: an object whose contents the executor's `configSchema`
 * decides (validateWorkflowDefinition checks it against the registered executor). The engine
 * keeps no copy of those schemas: two copies drifted apart.
 */
const executorConfig = {
  type: 'object',
  description: "an object, checked against the executor's configSchema",
} as const;

const configs = {
  TRIGGER: noConfig,
  PARSE: executorConfig,
  EXTRACT: executorConfig,
  CLASSIFY: executorConfig,
  SPLIT: executorConfig,
  MERGE_EXTRACT: executorConfig,
  CONDITIONAL: {
    type: 'object',
    required: ['conditions'],
    additionalProperties: false,
    properties: {
      conditions: {
        type: 'array',
        minItems: 1,
        maxItems: L.conditions,
        items: {
          type: 'object',
          required: ['id', 'type'],
          additionalProperties: false,
          properties: {
            id,
            type: { enum: CONDITION_TYPES },
            operation: { enum: CONDITION_OPERATIONS },
            leftOperand: text,
            rightOperand: text,
          },
        },
      },
    },
  },
  CONDITIONAL_EXTRACT: executorConfig,
  RULE_VALIDATION: {
    type: 'object',
    required: ['rules'],
    additionalProperties: false,
    properties: {
      rules: {
        type: 'array',
        minItems: 1,
        maxItems: L.rules,
        items: {
          type: 'object',
          required: ['name', 'formula'],
          additionalProperties: false,
          properties: { name: stepName, formula, description: text },
        },
      },
    },
  },
  EXTERNAL_DATA_VALIDATION: executorConfig,
  FILE_CONVERSION: executorConfig,
  HUMAN_REVIEW: noConfig,
  COLLECT: noConfig,
  WEBHOOK_RESPONSE: {
    type: 'object',
    additionalProperties: false,
    properties: { url: httpUrl, body: formula },
  },
} as const satisfies Record<StepType, unknown>;

const nexts = {
  TRIGGER: simpleNext,
  PARSE: simpleNext,
  EXTRACT: simpleNext,
  CLASSIFY: classificationNext,
  SPLIT: classificationNext,
  MERGE_EXTRACT: simpleNext,
  CONDITIONAL: conditionalNext,
  CONDITIONAL_EXTRACT: simpleNext,
  RULE_VALIDATION: ruleValidationNext,
  EXTERNAL_DATA_VALIDATION: simpleNext,
  FILE_CONVERSION: simpleNext,
  HUMAN_REVIEW: simpleNext,
  COLLECT: simpleNext,
  WEBHOOK_RESPONSE: terminalNext,
} as const satisfies Record<StepType, unknown>;

/** The fields every step has; `config` and `next` are checked per type. */
const stepBaseSchema = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name: stepName,
    type: { enum: STEP_TYPES },
    config: {},
    next: {},
    retry: retryPolicySchema,
    timeoutMs: { type: 'integer', minimum: 1, maximum: L.maxTimeoutMs },
  },
} as const;

/** The `config` and `next` of one step type. */
const stepTypeSchema = <const T extends StepType>(type: T) =>
  ({ type: 'object', properties: { config: configs[type], next: nexts[type] } }) as const;

const stepCase = <const T extends StepType>(type: T) =>
  ({
    if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited.
    then: stepTypeSchema(type),
  }) as const;

const definitionShellSchema = {
  type: 'object',
  required: ['steps'],
  additionalProperties: false,
  properties: { steps: { type: 'array', minItems: 1, maxItems: L.steps } },
} as const;

/**
 * The JSON Schema (draft-07) of a workflow definition `{ steps }`: every field of every step
 * type, per docs/workflows.md. Graph rules (names, routing, cycles) are checked by
 * `validateWorkflowDefinition`, not here.
 */
export const workflowDefinitionSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://docflow.dev/schemas/workflow-definition.json',
  title: 'docflow workflow definition',
  ...definitionShellSchema,
  properties: {
    steps: {
      ...definitionShellSchema.properties.steps,
      items: {
        ...stepBaseSchema,
        allOf: [
          stepCase('TRIGGER'),
          stepCase('PARSE'),
          stepCase('EXTRACT'),
          stepCase('CLASSIFY'),
          stepCase('SPLIT'),
          stepCase('MERGE_EXTRACT'),
          stepCase('CONDITIONAL'),
          stepCase('CONDITIONAL_EXTRACT'),
          stepCase('RULE_VALIDATION'),
          stepCase('EXTERNAL_DATA_VALIDATION'),
          stepCase('FILE_CONVERSION'),
          stepCase('HUMAN_REVIEW'),
          stepCase('COLLECT'),
          stepCase('WEBHOOK_RESPONSE'),
        ],
      },
    },
  },
} as const;

// The whole schema compiles to about 200 KB of code (100 to 300 ms). Checking it in pieces, each
// compiled on first use, costs a definition only the step types it uses, with the same issues
// (a test checks that against the whole schema).
const validators = new Map<string, ValidateFunction>();

function validator(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = compileSchema(schema);
    validators.set(key, validate);
  }
  return validate;
}

const STEP_TYPE_SET: ReadonlySet<string> = new Set(STEP_TYPES);

/** Issue code of every schema mismatch. */
export const SCHEMA_ISSUE_CODE = 'SCHEMA';

/**
 * Checks `definition` against {@link workflowDefinitionSchema}; every mismatch is a SCHEMA issue
 * with a path such as `steps[3].next[0].classificationId`.
 */
export function checkDefinitionSchema(definition: unknown): ValidationIssue[] {
  const steps = (definition as { steps?: unknown } | null | undefined)?.steps;
  const context = (path: string) => {
    const match = /^steps\[(\d+)\]\.[A-Za-z]+$/.exec(path);
    if (!match || !Array.isArray(steps)) return undefined;
    const type = (steps[Number(match[1])] as { type?: unknown } | null | undefined)?.type;
    return typeof type === 'string' ? `on ${aStep(type)}` : undefined;
  };
  const issues: ValidationIssue[] = [];
  const check = (validate: ValidateFunction, data: unknown, basePath: string) => {
    if (validate(data)) return;
    issues.push(
      ...ajvErrorsToIssues(validate.errors, { code: SCHEMA_ISSUE_CODE, basePath, context }),
    );
  };
  check(validator('definition', definitionShellSchema), definition, '');
  const isObject = typeof definition === 'object' && definition !== null;
  if (isObject && !Array.isArray(definition) && Array.isArray(steps)) {
    steps.forEach((step: unknown, i) => {
      check(validator('step', stepBaseSchema), step, `steps[${i}]`);
      const type = (step as { type?: unknown } | null | undefined)?.type;
      if (typeof step !== 'object' || step === null || Array.isArray(step)) return;
      if (typeof type !== 'string' || !STEP_TYPE_SET.has(type)) return;
      check(validator(type, stepTypeSchema(type as StepType)), step, `steps[${i}]`);
    });
  }
  return issues.map((issue) =>
    issue.path === '' ? { ...issue, message: `the definition ${issue.message}` } : issue,
  );
}
