/**
 * JSON Schema fragments of the processor step configs (docs/workflows.md). The
 * engine validates step configs against them at create, update and deploy; the executors check
 * what JSON Schema cannot say (unique classification ids, one `other`).
 */
/**
 * Size limits of step configs, so that validating and running a definition stays bounded (the
 * engine's definition checks bound the rest of a definition alike).
 */
export const CONFIG_LIMITS = {
    idLength: 200,
    nameLength: 128,
    textLength: 10_000,
    classifications: 500,
    rules: 200,
    urlLength: 2048,
};
const L = CONFIG_LIMITS;
/** An http: or https: URL the step calls. */
export const httpUrlSchema = {
    type: 'string',
    maxLength: L.urlLength,
    pattern: '^https?://\\S+$',
    description: 'an http: or https: URL',
};
/** `{ id, version }` of a saved processor; `pinned` forbids `latest` (CLASSIFY, SPLIT). */
export function processorReferenceSchema(pinned) {
    return {
        type: 'object',
        required: ['id', 'version'],
        additionalProperties: false,
        properties: {
            id: { type: 'string', minLength: 1, maxLength: L.idLength },
            version: pinned
                ? {
                    type: 'string',
                    pattern: '^(?:draft|[0-9]+\\.[0-9]+)$',
                    description: '"draft" or a published version such as "1.0" (pinned: not "latest")',
                }
                : {
                    type: 'string',
                    pattern: '^(?:draft|latest|[0-9]+\\.[0-9]+)$',
                    description: '"draft", "latest" or a published version such as "1.0"',
                },
        },
    };
}
const pageRanges = {
    type: 'array',
    items: {
        type: 'object',
        required: ['start'],
        properties: { start: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } },
    },
};
const classification = {
    type: 'object',
    required: ['id', 'type'],
    properties: {
        id: { type: 'string', minLength: 1, maxLength: L.idLength },
        type: { type: 'string', minLength: 1, maxLength: L.idLength },
        description: { type: 'string', maxLength: L.textLength },
        identifierKey: { type: 'string', maxLength: L.textLength },
    },
};
/** An inline extraction config: a JSON `schema` is required in workflows. */
export const extractionConfigSchema = {
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
export const classificationConfigSchema = {
    type: 'object',
    required: ['classifications'],
    properties: {
        type: { const: 'CLASSIFY' },
        classifications: {
            type: 'array',
            minItems: 1,
            maxItems: L.classifications,
            items: classification,
        },
        baseProcessor: { enum: ['classification_performance', 'classification_light'] },
        baseVersion: { type: 'string' },
        classificationRules: { type: 'string' },
        advancedOptions: { type: 'object', properties: { pageRanges } },
        parser: { type: 'object' },
        confidenceThreshold: { type: 'number', minimum: 0, maximum: 1 },
    },
};
/** An inline split config. */
export const splitterConfigSchema = {
    type: 'object',
    required: ['splitClassifications'],
    properties: {
        type: { const: 'SPLITTER' },
        splitClassifications: {
            type: 'array',
            minItems: 1,
            maxItems: L.classifications,
            items: classification,
        },
        baseProcessor: { enum: ['splitting_performance', 'splitting_light'] },
        baseVersion: { type: 'string' },
        splitRules: { type: 'string' },
        advancedOptions: { type: 'object', properties: { pageRanges } },
        parser: { type: 'object' },
        parseConfig: { type: 'object' },
    },
};
/** `failureBehavior` of EXTERNAL_DATA_VALIDATION and FILE_CONVERSION. */
export const failureBehaviorSchema = { enum: ['CONTINUE', 'EXIT'] };
//# sourceMappingURL=config-schemas.js.map