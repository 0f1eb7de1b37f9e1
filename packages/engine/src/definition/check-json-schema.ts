import type { ValidationIssue } from '../errors.ts';
import { metaSchemaIssues } from '../validation/json-schema.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';

/**
 * Checks that `schema` (an inline extractor's output schema) is a JSON Schema, against the
 * draft-07 meta-schema. Unknown keywords (`extend:type`, descriptions for the model) are fine.
 */
export function checkJsonSchema(schema: unknown, path: string): ValidationIssue[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return metaSchemaIssues(schema, path, Code.INVALID_JSON_SCHEMA);
}
