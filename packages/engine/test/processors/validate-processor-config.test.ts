import { describe, expect, it } from 'vitest';
import {
  classificationIdsOf,
  validateProcessorConfig,
} from '../../src/processors/validate-processor-config.ts';
import { VALID_CONFIGS } from './helpers.ts';

const issuesOf = (...args: Parameters<typeof validateProcessorConfig>) =>
  validateProcessorConfig(...args).map((i) => `${i.code} ${i.path}: ${i.message}`);

describe('validateProcessorConfig', () => {
  it('accepts the valid configs of each kind', () => {
    expect(validateProcessorConfig('extractor', VALID_CONFIGS.extractor)).toEqual([]);
    expect(validateProcessorConfig('classifier', VALID_CONFIGS.classifier)).toEqual([]);
    expect(validateProcessorConfig('splitter', VALID_CONFIGS.splitter)).toEqual([]);
  });

  it('accepts every extractor option of the interface', () => {
    const config = {
      type: 'EXTRACT',
      baseProcessor: 'extraction_performance',
      baseVersion: '4.2.0',
      extractionRules: 'Dates as yyyy-mm-dd',
      schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
      advancedOptions: {
        modelReasoningInsightsEnabled: true,
        advancedMultimodalEnabled: false,
        citationsEnabled: true,
        citationMode: 'word',
        arrayCitationStrategy: 'item',
        arrayStrategy: { type: 'large_array_heuristics' },
        chunkingOptions: {
          chunkingStrategy: 'semantic',
          pageChunkSize: 10,
          chunkSelectionStrategy: 'take_first',
          customSemanticChunkingRules: 'split at headings',
        },
        excelSheetRanges: [{ start: 0, end: 2 }],
        excelSheetSelectionStrategy: 'all',
        pageRanges: [{ start: 1, end: 750 }, { start: 800 }],
        reviewAgent: { enabled: true },
        currentDateEnabled: true,
        documentKind: 'invoice',
        keyDefinitions: 'total: the amount due',
        advancedFigureParsingEnabled: true,
        fixedPageLimit: 20,
      },
      parser: { target: 'markdown' },
    };
    expect(validateProcessorConfig('extractor', config)).toEqual([]);
  });

  it('accepts the deprecated fields instead of a schema', () => {
    const config = {
      fields: [
        { id: 'f1', name: 'total', type: 'currency', description: 'Amount due' },
        {
          id: 'f2',
          name: 'items',
          type: 'array',
          schema: [{ id: 'f3', name: 'sku', type: 'string' }],
        },
        { id: 'f4', name: 'kind', type: 'enum', enum: [{ value: 'a', description: 'A' }] },
      ],
    };
    expect(validateProcessorConfig('extractor', config)).toEqual([]);
  });

  it('names every problem of an extractor config by path', () => {
    expect(
      issuesOf('extractor', {
        type: 'CLASSIFY',
        baseProcessor: 'extraction_fast',
        baseVersion: '1',
        schema: { type: 'object', properties: { a: { type: 'strin' } } },
        advancedOptions: {
          citationMode: 'line',
          unknownOption: true,
          pageRanges: [{ start: 5, end: 2 }],
          excelSheetRanges: [{ start: 3, end: 1 }],
          chunkingOptions: { pageChunkSize: 0 },
        },
      }),
    ).toEqual([
      'CONFIG_INVALID config.type: must be "EXTRACT"',
      'CONFIG_INVALID config.baseProcessor: must be one of "extraction_performance", "extraction_light", "extraction_operator"',
      'CONFIG_INVALID config.advancedOptions.unknownOption: is not allowed',
      'CONFIG_INVALID config.advancedOptions.chunkingOptions.pageChunkSize: must be at least 1',
      expect.stringMatching(/^INVALID_JSON_SCHEMA config\.schema\.properties\.a\.type: /),
      'OPTION_REQUIRES config.advancedOptions.citationMode: needs advancedOptions.citationsEnabled to be true',
      'INVALID_RANGE config.advancedOptions.pageRanges[0].end: must be at least start (5)',
      'INVALID_RANGE config.advancedOptions.excelSheetRanges[0].end: must be at least start (3)',
    ]);
  });

  it('requires exactly one of schema and fields', () => {
    expect(issuesOf('extractor', {})).toEqual([
      'SCHEMA_OR_FIELDS config.schema: is required: an extractor needs a JSON Schema `schema` (or the deprecated `fields`)',
    ]);
    expect(
      validateProcessorConfig('extractor', {
        schema: { type: 'object' },
        fields: [{ id: 'a', name: 'a', type: 'string' }],
      }).map((i) => i.path),
    ).toEqual(['config.fields']);
  });

  it('reports what ajv cannot compile, and a root that is not an object', () => {
    const unresolved = validateProcessorConfig('extractor', {
      schema: { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } },
    });
    expect(unresolved).toEqual([
      {
        code: 'INVALID_JSON_SCHEMA',
        path: 'config.schema',
        message: expect.stringMatching(/^cannot be compiled as a JSON Schema: .*missing/),
      },
    ]);
    expect(validateProcessorConfig('extractor', { schema: { type: 'array' } })).toEqual([
      {
        code: 'INVALID_JSON_SCHEMA',
        path: 'config.schema.type',
        message: 'must be "object": an extraction schema describes an object of fields',
      },
    ]);
    // A schema's own $id does not collide from one check to the next.
    const withId = { schema: { $id: 'https://example.com/s', type: 'object' } };
    expect(validateProcessorConfig('extractor', withId)).toEqual([]);
    expect(validateProcessorConfig('extractor', withId)).toEqual([]);
  });

  it('checks deprecated fields recursively', () => {
    const issues = validateProcessorConfig('extractor', {
      fields: [
        { id: 'a', name: 'a', type: 'array' },
        { id: 'b', name: 'b', type: 'enum' },
        { id: 'c', name: 'c', type: 'object', schema: [{ id: 'd', type: 'date' }] },
        { id: 'e', name: 'e', type: 'text' },
      ],
    });
    expect(issues.map((i) => `${i.path} ${i.message}`)).toEqual([
      'config.fields[0].schema is required',
      'config.fields[1].enum is required',
      'config.fields[2].schema[0].name is required',
      expect.stringMatching(/^config\.fields\[3\]\.type must be one of "string"/),
    ]);
  });

  it('rejects fields with the operator base processor', () => {
    expect(
      validateProcessorConfig('extractor', {
        baseProcessor: 'extraction_operator',
        fields: [{ id: 'a', name: 'a', type: 'string' }],
      }).map((i) => `${i.code} ${i.path}`),
    ).toEqual(['SCHEMA_OR_FIELDS config.fields']);
  });

  it('classifier: unique ids, exactly one other, enums and options by path', () => {
    expect(
      issuesOf('classifier', {
        classifications: [
          { id: 'a', type: 'invoice' },
          { id: 'b', type: 'other' },
          { id: 'a', type: 'receipt' },
          { id: 'c', type: 'other', extra: 1 },
          { type: 'x' },
        ],
        baseProcessor: 'classification_fast',
        advancedOptions: { context: 'huge', fixedPageLimit: 0, pageRanges: [{ start: 3, end: 1 }] },
        confidenceThreshold: 2,
      }),
    ).toEqual([
      'CONFIG_INVALID config.classifications[3].extra: is not allowed',
      'CONFIG_INVALID config.classifications[4].id: is required',
      'CONFIG_INVALID config.baseProcessor: must be one of "classification_performance", "classification_light"',
      'CONFIG_INVALID config.advancedOptions.context: must be one of "default", "max"',
      'CONFIG_INVALID config.advancedOptions.fixedPageLimit: must be at least 1',
      'CONFIG_INVALID config.confidenceThreshold: must be at most 1',
      'DUPLICATE_CLASSIFICATION_ID config.classifications[2].id: "a" is already the id of config.classifications[0]; routing needs unique ids',
      'OTHER_CLASSIFICATION_COUNT config.classifications: must have exactly one classification of type "other" (the fallback), found 2',
      'INVALID_RANGE config.advancedOptions.pageRanges[0].end: must be at least start (3)',
    ]);
    expect(issuesOf('classifier', { classifications: [{ id: 'a', type: 'invoice' }] })).toEqual([
      'OTHER_CLASSIFICATION_COUNT config.classifications: must have exactly one classification of type "other" (the fallback), found 0',
    ]);
    expect(issuesOf('classifier', { classifications: [] })).toEqual([
      'CONFIG_INVALID config.classifications: must have at least 1 item',
    ]);
  });

  it('classifier: baseVersion requires baseProcessor', () => {
    const issues = validateProcessorConfig('classifier', {
      ...VALID_CONFIGS.classifier,
      baseVersion: '1.0',
    });
    expect(issues).toEqual([
      {
        code: 'CONFIG_INVALID',
        path: 'config.baseProcessor',
        message: 'is required when baseVersion is given',
      },
    ]);
  });

  it('splitter: at least one other (several allowed), unique ids, options', () => {
    expect(
      validateProcessorConfig('splitter', {
        splitClassifications: [
          { id: 'o1', type: 'other' },
          { id: 'o2', type: 'other', identifierKey: 'the account number' },
        ],
        baseProcessor: 'splitting_light',
        splitRules: 'new document at each cover page',
        advancedOptions: {
          splitIdentifierRules: 'x',
          splitExcelDocumentsBySheetEnabled: true,
          splitMethod: 'low_latency',
          pageRanges: [{ start: 1 }],
        },
      }),
    ).toEqual([]);
    expect(
      issuesOf('splitter', {
        splitClassifications: [
          { id: 'a', type: 'invoice' },
          { id: 'a', type: 'receipt' },
        ],
        advancedOptions: { splitMethod: 'fast', bogus: 1 },
      }),
    ).toEqual([
      'CONFIG_INVALID config.advancedOptions.bogus: is not allowed',
      'CONFIG_INVALID config.advancedOptions.splitMethod: must be one of "high_precision", "low_latency"',
      'DUPLICATE_CLASSIFICATION_ID config.splitClassifications[1].id: "a" is already the id of config.splitClassifications[0]; routing needs unique ids',
      'OTHER_CLASSIFICATION_COUNT config.splitClassifications: must have at least one split classification of type "other" (the fallback)',
    ]);
    expect(issuesOf('splitter', {})).toEqual([
      'CONFIG_INVALID config.splitClassifications: is required',
    ]);
  });

  it('reports a config that is not an object, under the base path', () => {
    expect(validateProcessorConfig('splitter', 'x', 'body.config')).toEqual([
      { code: 'CONFIG_INVALID', path: 'body.config', message: 'must be an object' },
    ]);
    expect(validateProcessorConfig('extractor', null)).toHaveLength(1);
  });
});

describe('classificationIdsOf', () => {
  it('lists ids of classifiers and splitters, none for extractors', () => {
    expect(classificationIdsOf('classifier', VALID_CONFIGS.classifier)).toEqual([
      'cls_invoice',
      'cls_other',
    ]);
    expect(classificationIdsOf('splitter', VALID_CONFIGS.splitter)).toEqual([
      'spl_invoice',
      'spl_other',
    ]);
    expect(classificationIdsOf('extractor', VALID_CONFIGS.extractor)).toEqual([]);
  });
});
