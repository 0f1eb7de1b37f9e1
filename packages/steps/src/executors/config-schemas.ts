/**
 * JSON Schema fragments of the processor step configs (DESIGN.md "Workflow definitions"). The
 * engine validates step configs against them at create, update and deploy; the executors check
 * what JSON Schema cannot say (unique classification ids, one `other`).
 */

type Schema = {
  readonly [key: string]: Schema | Schema[] | string | number | boolean | readonly string[] | null;
};

/** `{ id, version }` of a saved processor; `pinned` forbids `latest` (CLASSIFY, SPLIT). */
export function processorReferenceSchema(pinned: boolean): Schema {
  return {
    type: 'object',
    required: ['id', 'version'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1 },
      version: pinned
        ? { type: 'string', minLength: 1, pattern: '^(?!latest$).+$' }
        : { type: 'string', minLength: 1 },
    },
  };
}

const pageRanges: Schema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['start'],
    properties: { start: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } },
  },
};

const classification: Schema = {
  type: 'object',
  required: ['id', 'type'],
  properties: {
    id: { type: 'string', minLength: 1 },
    type: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    identifierKey: { type: 'string' },
  },
};

/** An inline extraction config: a JSON `schema` is required in workflows. */
export const extractionConfigSchema: Schema = {
  type: 'object',
  required: ['schema'],
  properties: {
    type: { const: 'EXTRACT' },
    baseProcessor: { enum: ['extraction_performance', 'extraction_light', 'extraction_operator'] },
    baseVersion: { type: 'string' },
    extractionRules: { type: 'string' },
    schema: { type: 'object' },
    advancedOptions: {
      type: 'object',
      properties: {
        pageRanges,
        excelSheetRanges: {
          type: 'array',
          items: {
            type: 'object',
            required: ['start', 'end'],
            properties: {
              start: { type: 'integer', minimum: 0 },
              end: { type: 'integer', minimum: 0 },
            },
          },
        },
        citationsEnabled: { type: 'boolean' },
      },
    },
    parser: { type: 'object' },
  },
};

/** An inline classification config. */
export const classificationConfigSchema: Schema = {
  type: 'object',
  required: ['classifications'],
  properties: {
    type: { const: 'CLASSIFY' },
    classifications: { type: 'array', minItems: 1, items: classification },
    baseProcessor: { enum: ['classification_performance', 'classification_light'] },
    baseVersion: { type: 'string' },
    classificationRules: { type: 'string' },
    advancedOptions: { type: 'object', properties: { pageRanges } },
    parser: { type: 'object' },
    confidenceThreshold: { type: 'number', minimum: 0, maximum: 1 },
  },
};

/** An inline split config. */
export const splitterConfigSchema: Schema = {
  type: 'object',
  required: ['splitClassifications'],
  properties: {
    type: { const: 'SPLITTER' },
    splitClassifications: { type: 'array', minItems: 1, items: classification },
    baseProcessor: { enum: ['splitting_performance', 'splitting_light'] },
    baseVersion: { type: 'string' },
    splitRules: { type: 'string' },
    advancedOptions: { type: 'object', properties: { pageRanges } },
    parser: { type: 'object' },
    parseConfig: { type: 'object' },
  },
};

/** `failureBehavior` of EXTERNAL_DATA_VALIDATION and FILE_CONVERSION. */
export const failureBehaviorSchema: Schema = { enum: ['CONTINUE', 'EXIT'] };
