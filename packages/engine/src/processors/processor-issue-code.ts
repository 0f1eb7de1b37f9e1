/**
 * Stable codes of the ValidationIssues of the processor resources (extractors, classifiers,
 * splitters). Documented in `docs/errors/processors-resources.md` (a test keeps the two in sync).
 * Codes shared with workflow definitions keep the same spelling.
 */
export const ProcessorIssueCode = {
  /** A config does not match its JSON Schema (missing, extra, mistyped or out-of-range field). */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** An extractor config has neither a JSON `schema` nor the deprecated `fields`, or has both. */
  SCHEMA_OR_FIELDS: 'SCHEMA_OR_FIELDS',
  /** An extractor's `schema` is not a JSON Schema ajv can compile, or its root is not an object. */
  INVALID_JSON_SCHEMA: 'INVALID_JSON_SCHEMA',
  /** Two classifications (or split classifications) share an id. */
  DUPLICATE_CLASSIFICATION_ID: 'DUPLICATE_CLASSIFICATION_ID',
  /** A classifier lacks exactly one `other` classification, or a splitter has none. */
  OTHER_CLASSIFICATION_COUNT: 'OTHER_CLASSIFICATION_COUNT',
  /** A range (`pageRanges`, `excelSheetRanges`) ends before it starts. */
  INVALID_RANGE: 'INVALID_RANGE',
  /** An option that needs another one (`citationMode` needs `citationsEnabled: true`). */
  OPTION_REQUIRES: 'OPTION_REQUIRES',
  /** The name is missing, empty or longer than 255 characters. */
  INVALID_NAME: 'INVALID_NAME',
  /** Two inputs that exclude each other were given (`generate` with `config`). */
  NOT_COMBINABLE: 'NOT_COMBINABLE',
  /** An input only extractors accept (`cloneExtractorId`, `generate`) was given to another kind. */
  NOT_ALLOWED: 'NOT_ALLOWED',
  /** The `generate` request is malformed (files, instructions). */
  INVALID_GENERATE_REQUEST: 'INVALID_GENERATE_REQUEST',
  /** Schema generation was asked for, but the engine has no schema generator (model provider). */
  SCHEMA_GENERATION_UNAVAILABLE: 'SCHEMA_GENERATION_UNAVAILABLE',
  /** The schema generator failed or returned something that is not a valid extraction schema. */
  SCHEMA_GENERATION_FAILED: 'SCHEMA_GENERATION_FAILED',
  /** `releaseType` is not `major` or `minor`, or `description` is not a string. */
  INVALID_PUBLISH_REQUEST: 'INVALID_PUBLISH_REQUEST',
  /** A version is not `draft`, `latest` or a published number such as `1.1`. */
  INVALID_VERSION: 'INVALID_VERSION',
  /** A referenced processor, source extractor or version does not exist. */
  NOT_FOUND: 'NOT_FOUND',
} as const;

/** A {@link ProcessorIssueCode}. */
export type ProcessorIssueCode = (typeof ProcessorIssueCode)[keyof typeof ProcessorIssueCode];
