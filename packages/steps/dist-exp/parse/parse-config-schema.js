const agentic = {
    type: 'object',
    additionalProperties: false,
    properties: {
        agentic: {
            type: 'object',
            additionalProperties: false,
            properties: { enabled: { type: 'boolean' }, customInstructions: { type: 'string' } },
        },
    },
};
const toggle = {
    type: 'object',
    additionalProperties: false,
    properties: { enabled: { type: 'boolean' } },
};
/** JSON Schema (draft 2020-12 subset understood by ajv 8) of the ParseConfig. */
export const parseConfigSchema = {
    type: 'object',
    additionalProperties: false,
    properties: {
        target: { enum: ['markdown', 'spatial'] },
        chunkingStrategy: {
            type: 'object',
            additionalProperties: false,
            required: ['type'],
            properties: {
                type: { enum: ['page', 'document', 'section'] },
                options: { type: 'object' },
            },
        },
        engine: { enum: ['parse_performance', 'parse_light', 'parse_auto'] },
        engineVersion: { type: 'string', minLength: 1 },
        blockOptions: {
            type: 'object',
            additionalProperties: false,
            properties: {
                figures: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                        enabled: { type: 'boolean' },
                        customInstructions: { type: 'string', maxLength: 2000 },
                        imageClippingEnabled: { type: 'boolean' },
                        classificationEnabled: { type: 'boolean' },
                        summarizationEnabled: { type: 'boolean' },
                    },
                },
                tables: agentic,
                text: agentic,
                keyValue: toggle,
                barcodes: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                        imageClippingEnabled: { type: 'boolean' },
                        readingEnabled: { type: 'boolean' },
                    },
                },
                formulas: toggle,
            },
        },
        advancedOptions: {
            type: 'object',
            additionalProperties: false,
            properties: {
                pageRotationEnabled: { type: 'boolean' },
                pageRanges: {
                    type: 'array',
                    items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['start'],
                        properties: {
                            start: { type: 'integer', minimum: 1 },
                            end: { type: 'integer', minimum: 1 },
                        },
                    },
                },
                excelParsingMode: { enum: ['basic', 'advanced'] },
                excelSkipHiddenContent: { type: 'boolean' },
                excelUseRawCellValues: { type: 'boolean' },
                excelSkipCalculation: { type: 'boolean' },
                excelIncludeCellMetadata: { type: 'boolean' },
                excelIncludeCellFormatting: { type: 'boolean' },
                formattingDetection: {
                    type: 'array',
                    items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['type'],
                        properties: { type: { const: 'change_tracking' } },
                    },
                },
                returnOcr: {
                    type: 'object',
                    additionalProperties: false,
                    properties: { words: { type: 'boolean' } },
                },
            },
        },
    },
};
/** JSON Schema of the PARSE step's `config`: `{ parseConfig?: ParseConfig }`. */
export const parseStepConfigSchema = {
    type: 'object',
    additionalProperties: false,
    properties: { parseConfig: parseConfigSchema },
};
//# sourceMappingURL=parse-config-schema.js.map