import { Ajv } from 'ajv';
import type { ValidationIssue } from '../errors.ts';
import { ajvErrorsToIssues } from './ajv-issues.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';

let ajv: Ajv | undefined;

/**
 * Checks that `schema` (an inline extractor's output schema) is a JSON Schema, against the
 * draft-07 meta-schema. Unknown keywords (`extend:type`, descriptions for the model) are fine.
 */
export function checkJsonSchema(schema: unknown, path: string): ValidationIssue[] {
  ajv ??= new Ajv({ allErrors: true, verbose: true, strict: false, logger: false });
  if (typeof schema !== 'object' || schema === null) return [];
  try {
    if (ajv.validateSchema(schema as object) === true) return [];
  } catch (error) {
    // validateSchema throws for a `$schema` it has no meta-schema for.
    return [
      {
        code: Code.INVALID_JSON_SCHEMA,
        path: `${path}.$schema`,
        message: `names a meta-schema this engine does not know (${error instanceof Error ? error.message : String(error)}); use draft-07 or omit it`,
      },
    ];
  }
  return ajvErrorsToIssues(ajv.errors, { code: Code.INVALID_JSON_SCHEMA, basePath: path });
}
