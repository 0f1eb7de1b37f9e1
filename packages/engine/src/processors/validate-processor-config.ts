import type { ErrorObject } from 'ajv';
import { checkJsonSchema } from '../definition/check-json-schema.ts';
import { asArray, asRecord, asString } from '../definition/step-view.ts';
import type { ProcessorKind } from '../definition/workflow-definition.ts';
import type { ValidationIssue } from '../errors.ts';
import { ajvErrorsToIssues, appendPath, pointerToPath } from '../validation/ajv-issues.ts';
import { compileSchema, userSchemaProblem } from '../validation/json-schema.ts';
import {
  classifierConfigSchema,
  extractorConfigSchema,
  splitterConfigSchema,
} from './processor-config-schemas.ts';
import { ProcessorIssueCode as Code } from './processor-issue-code.ts';

const SCHEMAS = {
  extractor: extractorConfigSchema,
  classifier: classifierConfigSchema,
  splitter: splitterConfigSchema,
} as const;

type Issues = ValidationIssue[];

/** ajv's errors as issues; a `dependencies` error names the missing field itself. */
function schemaIssues(errors: readonly ErrorObject[], basePath: string): Issues {
  const issues = ajvErrorsToIssues(
    errors.filter((e) => e.keyword !== 'dependencies'),
    { code: Code.CONFIG_INVALID, basePath },
  );
  for (const error of errors) {
    if (error.keyword !== 'dependencies') continue;
    const { property, missingProperty } = error.params as {
      property: string;
      missingProperty: string;
    };
    issues.push({
      code: Code.CONFIG_INVALID,
      path: appendPath(pointerToPath(error.instancePath, basePath), missingProperty),
      message: `is required when ${property} is given`,
    });
  }
  return issues;
}

function checkRanges(issues: Issues, list: unknown, path: string): void {
  asArray(list).forEach((raw, k) => {
    const range = asRecord(raw);
    const start = range?.start;
    const end = range?.end;
    if (typeof start === 'number' && typeof end === 'number' && end < start) {
      issues.push({
        code: Code.INVALID_RANGE,
        path: `${path}[${k}].end`,
        message: `must be at least start (${start})`,
      });
    }
  });
}

function checkClassifications(
  issues: Issues,
  list: unknown,
  path: string,
  others: 'exactly-one' | 'at-least-one',
): void {
  if (!Array.isArray(list) || list.length === 0) return;
  const firstIndex = new Map<string, number>();
  let count = 0;
  list.forEach((raw, k) => {
    const item = asRecord(raw);
    if (asString(item?.type) === 'other') count++;
    const id = asString(item?.id);
    if (id === undefined) return;
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, k);
    } else {
      issues.push({
        code: Code.DUPLICATE_CLASSIFICATION_ID,
        path: `${path}[${k}].id`,
        message: `"${id}" is already the id of ${path}[${first}]; routing needs unique ids`,
      });
    }
  });
  if (others === 'exactly-one' && count !== 1) {
    issues.push({
      code: Code.OTHER_CLASSIFICATION_COUNT,
      path,
      message: `must have exactly one classification of type "other" (the fallback), found ${count}`,
    });
  } else if (others === 'at-least-one' && count === 0) {
    issues.push({
      code: Code.OTHER_CLASSIFICATION_COUNT,
      path,
      message: 'must have at least one split classification of type "other" (the fallback)',
    });
  }
}

function checkExtractor(issues: Issues, config: Readonly<Record<string, unknown>>, base: string) {
  const hasSchema = config.schema !== undefined;
  const hasFields = config.fields !== undefined;
  if (!hasSchema && !hasFields) {
    issues.push({
      code: Code.SCHEMA_OR_FIELDS,
      path: `${base}.schema`,
      message:
        'is required: an extractor needs a JSON Schema `schema` (or the deprecated `fields`)',
    });
  } else if (hasSchema && hasFields) {
    issues.push({
      code: Code.SCHEMA_OR_FIELDS,
      path: `${base}.fields`,
      message: 'cannot be combined with schema: give one of them (schema is preferred)',
    });
  }
  const schema = asRecord(config.schema);
  if (schema) {
    const schemaPath = `${base}.schema`;
    const metaIssues = checkJsonSchema(schema, schemaPath).map((i) => ({
      ...i,
      code: Code.INVALID_JSON_SCHEMA,
    }));
    issues.push(...metaIssues);
    if (metaIssues.length === 0) {
      const problem = userSchemaProblem(schema);
      if (problem !== undefined) {
        issues.push({
          code: Code.INVALID_JSON_SCHEMA,
          path: schemaPath,
          message: `cannot be compiled as a JSON Schema: ${problem}`,
        });
      }
    }
    if (schema.type !== 'object') {
      issues.push({
        code: Code.INVALID_JSON_SCHEMA,
        path: `${schemaPath}.type`,
        message: 'must be "object": an extraction schema describes an object of fields',
      });
    }
  }
  if (config.baseProcessor === 'extraction_operator' && hasFields) {
    issues.push({
      code: Code.SCHEMA_OR_FIELDS,
      path: `${base}.fields`,
      message: 'is not supported by extraction_operator, which extracts with a JSON schema only',
    });
  }
  const options = asRecord(config.advancedOptions);
  if (options) {
    const optionsPath = `${base}.advancedOptions`;
    for (const key of ['citationMode', 'arrayCitationStrategy']) {
      if (options[key] !== undefined && options.citationsEnabled !== true) {
        issues.push({
          code: Code.OPTION_REQUIRES,
          path: `${optionsPath}.${key}`,
          message: 'needs advancedOptions.citationsEnabled to be true',
        });
      }
    }
    checkRanges(issues, options.pageRanges, `${optionsPath}.pageRanges`);
    checkRanges(issues, options.excelSheetRanges, `${optionsPath}.excelSheetRanges`);
  }
}

/**
 * Every problem of a processor config, each named by its path under `basePath`
 * (`config.classifications[2].id`): the JSON Schema of the kind, then what a schema cannot say
 * (exactly one of `schema`/`fields`, a compilable extraction schema, unique classification ids,
 * the `other` fallback, ranges, options that need others). Empty when valid. Never throws.
 *
 * @example
 * validateProcessorConfig('classifier', { classifications: [] }, 'config');
 * // [{ code: 'CONFIG_INVALID', path: 'config.classifications', message: 'must have at least 1 item' }]
 */
export function validateProcessorConfig(
  kind: ProcessorKind,
  config: unknown,
  basePath = 'config',
): ValidationIssue[] {
  const validate = compileSchema(SCHEMAS[kind]);
  const issues: Issues = validate(config) ? [] : schemaIssues(validate.errors ?? [], basePath);
  const record = asRecord(config);
  if (!record) return issues;
  switch (kind) {
    case 'extractor':
      checkExtractor(issues, record, basePath);
      break;
    case 'classifier':
      checkClassifications(
        issues,
        record.classifications,
        `${basePath}.classifications`,
        'exactly-one',
      );
      checkRanges(
        issues,
        asRecord(record.advancedOptions)?.pageRanges,
        `${basePath}.advancedOptions.pageRanges`,
      );
      break;
    case 'splitter':
      checkClassifications(
        issues,
        record.splitClassifications,
        `${basePath}.splitClassifications`,
        'at-least-one',
      );
      checkRanges(
        issues,
        asRecord(record.advancedOptions)?.pageRanges,
        `${basePath}.advancedOptions.pageRanges`,
      );
      break;
  }
  return issues;
}

/** The classification ids of a classifier or splitter config (empty for extractors). */
export function classificationIdsOf(kind: ProcessorKind, config: unknown): string[] {
  if (kind === 'extractor') return [];
  const list =
    asRecord(config)?.[kind === 'classifier' ? 'classifications' : 'splitClassifications'];
  return asArray(list)
    .map((item) => asString(asRecord(item)?.id))
    .filter((id): id is string => id !== undefined);
}
