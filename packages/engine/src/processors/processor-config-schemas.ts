/**
 * JSON Schemas of saved processor configs (the interface's "Legacy processor version and configs",
 * ExtractAdvancedOptions, SplitConfig). Executors and workflow validation may reuse them; what
 * JSON Schema cannot say (unique classification ids, one `other`, a compilable extraction
 * schema, ranges with `end` at least `start`) is checked by `validateProcessorConfig`.
 *
 * `advancedOptions` rejects unknown keys, like VerifyConfig does in the interface, so a misspelt option
 * is an error rather than silently ignored. Top-level keys are closed for the same reason.
 */

/** A JSON Schema as plain data. */
export type ConfigJsonSchema = { readonly [key: string]: unknown };

/** At most this many classifications per classifier or splitter (as in workflow definitions). */
export const MAX_CLASSIFICATIONS = 500;

const text = { type: 'string', maxLength: 100_000 } as const;
const classificationId = { type: 'string', minLength: 1, maxLength: 255 } as const;

const pageRanges = {
  type: 'array',
  maxItems: 1000,
  items: {
    type: 'object',
    required: ['start'],
    additionalProperties: false,
    properties: {
      start: { type: 'integer', minimum: 1 },
      end: { type: 'integer', minimum: 1 },
    },
  },
} as const;

const fixedPageLimit = {
  type: 'integer',
  minimum: 1,
  description: 'deprecated; use pageRanges',
} as const;

/** A parse configuration (the interface's ParseConfig); its fields are checked by the PARSE executor. */
const parseConfig = { type: 'object' } as const;

const extractionField = {
  type: 'object',
  required: ['id', 'name', 'type'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    type: {
      enum: [
        'string',
        'number',
        'currency',
        'boolean',
        'date',
        'array',
        'enum',
        'object',
        'signature',
      ],
    },
    description: text,
    schema: { type: 'array', items: { $ref: '#/definitions/extractionField' } },
    enum: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['value'],
        additionalProperties: false,
        properties: { value: { type: 'string' }, description: text },
      },
    },
  },
  allOf: [
    {
      if: { required: ['type'], properties: { type: { enum: ['array', 'object'] } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited.
      then: { required: ['schema'] },
    },
    {
      if: { required: ['type'], properties: { type: { const: 'enum' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited.
      then: { required: ['enum'] },
    },
  ],
} as const;

/** The interface's ExtractAdvancedOptions plus the deprecated legacy fields. */
const extractAdvancedOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    modelReasoningInsightsEnabled: { type: 'boolean' },
    advancedMultimodalEnabled: { type: 'boolean' },
    citationsEnabled: { type: 'boolean' },
    citationMode: { enum: ['line', 'word', 'block'] },
    arrayCitationStrategy: { enum: ['item', 'property'] },
    arrayStrategy: {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: {
          enum: [
            'large_array_heuristics',
            'large_array_max_context',
            'large_array_overlap_context',
          ],
        },
      },
    },
    chunkingOptions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        chunkingStrategy: { enum: ['standard', 'semantic', 'contextual'] },
        pageChunkSize: { type: 'integer', minimum: 1 },
        chunkSelectionStrategy: { enum: ['intelligent', 'confidence', 'take_first', 'take_last'] },
        customSemanticChunkingRules: text,
      },
    },
    excelSheetRanges: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['start', 'end'],
        additionalProperties: false,
        properties: {
          start: { type: 'integer', minimum: 0 },
          end: { type: 'integer', minimum: 0 },
        },
      },
    },
    excelSheetSelectionStrategy: { enum: ['intelligent', 'all', 'first', 'last'] },
    pageRanges,
    reviewAgent: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: { type: 'boolean' } },
    },
    currentDateEnabled: { type: 'boolean' },
    documentKind: { type: 'string', description: 'deprecated' },
    keyDefinitions: { type: 'string', description: 'deprecated' },
    advancedFigureParsingEnabled: { type: 'boolean', description: 'deprecated' },
    fixedPageLimit,
  },
} as const;

/**
 * The interface's LegacyExtractionConfig: a JSON `schema` (or the deprecated `fields`; exactly one of
 * them, checked by `validateProcessorConfig` so that the message names both).
 */
export const extractorConfigSchema: ConfigJsonSchema = {
  $id: 'docflow:processor-config:extractor',
  type: 'object',
  additionalProperties: false,
  definitions: { extractionField },
  properties: {
    type: { const: 'EXTRACT' },
    baseProcessor: { enum: ['extraction_performance', 'extraction_light', 'extraction_operator'] },
    baseVersion: { type: 'string', minLength: 1 },
    extractionRules: text,
    schema: { type: 'object' },
    fields: {
      type: 'array',
      description: 'deprecated: use schema',
      items: { $ref: '#/definitions/extractionField' },
    },
    advancedOptions: extractAdvancedOptions,
    parser: parseConfig,
  },
  dependencies: { baseVersion: ['baseProcessor'] },
};

const classification = {
  type: 'object',
  required: ['id', 'type'],
  additionalProperties: false,
  properties: { id: classificationId, type: classificationId, description: text },
} as const;

/** The interface's LegacyClassificationConfig (plus docflow's `confidenceThreshold` of the offline provider). */
export const classifierConfigSchema: ConfigJsonSchema = {
  $id: 'docflow:processor-config:classifier',
  type: 'object',
  required: ['classifications'],
  additionalProperties: false,
  properties: {
    type: { const: 'CLASSIFY' },
    classifications: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_CLASSIFICATIONS,
      items: classification,
    },
    baseProcessor: { enum: ['classification_performance', 'classification_light'] },
    baseVersion: { type: 'string', minLength: 1 },
    classificationRules: text,
    advancedOptions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        context: { enum: ['default', 'max'] },
        advancedMultimodalEnabled: { type: 'boolean' },
        pageRanges,
        fixedPageLimit,
      },
    },
    parser: parseConfig,
    parseConfig,
    confidenceThreshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'docflow: below this confidence the `other` classification is chosen',
    },
  },
  dependencies: { baseVersion: ['baseProcessor'] },
};

const splitClassification = {
  type: 'object',
  required: ['id', 'type'],
  additionalProperties: false,
  properties: {
    id: classificationId,
    type: classificationId,
    description: text,
    identifierKey: text,
  },
} as const;

/** The interface's LegacySplitterConfig / SplitConfig. */
export const splitterConfigSchema: ConfigJsonSchema = {
  $id: 'docflow:processor-config:splitter',
  type: 'object',
  required: ['splitClassifications'],
  additionalProperties: false,
  properties: {
    type: { const: 'SPLITTER' },
    splitClassifications: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_CLASSIFICATIONS,
      items: splitClassification,
    },
    baseProcessor: { enum: ['splitting_performance', 'splitting_light'] },
    baseVersion: { type: 'string', minLength: 1 },
    splitRules: text,
    advancedOptions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        splitIdentifierRules: text,
        splitExcelDocumentsBySheetEnabled: { type: 'boolean' },
        pageRanges,
        pageOverlapEnabled: { type: 'boolean' },
        splitMethod: {
          enum: ['high_precision', 'low_latency'],
          description:
            'deprecated; ignored by splitting_light 1.3.0+ and splitting_performance 1.5.0+',
        },
        fixedPageLimit,
      },
    },
    parser: parseConfig,
    parseConfig,
  },
  dependencies: { baseVersion: ['baseProcessor'] },
};
