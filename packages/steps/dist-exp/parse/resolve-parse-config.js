import { Ajv } from 'ajv';
import { parseConfigSchema } from './parse-config-schema.js';
/** The interface's default end of a page range. */
export const DEFAULT_PAGE_RANGE_END = 750;
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(parseConfigSchema);
/**
 * Validates a ParseConfig against its schema and the interface's cross-field rules and applies the
 * defaults. Returns the list of problems (`path: reason`) instead of throwing.
 */
export function resolveParseConfig(config) {
    const given = config ?? {};
    if (!validate(given)) {
        const issues = (validate.errors ?? []).map((error) => {
            const where = `parseConfig${error.instancePath.replaceAll('/', '.')}`;
            const extra = error.keyword === 'additionalProperties'
                ? ` (${String(error.params.additionalProperty)})`
                : error.keyword === 'enum'
                    ? ` (${error.params.allowedValues?.join(', ')})`
                    : '';
            return `${where}: ${error.message ?? 'invalid'}${extra}`;
        });
        return { ok: false, issues };
    }
    const issues = [];
    const target = given.target ?? 'markdown';
    const chunking = given.chunkingStrategy?.type ?? 'page';
    if (target === 'spatial' && chunking !== 'page') {
        issues.push(`parseConfig.chunkingStrategy.type: '${chunking}' is not supported with target 'spatial' (spatial supports page chunking only)`);
    }
    const advanced = given.advancedOptions ?? {};
    const excelAdvanced = advanced.excelParsingMode === 'advanced';
    for (const key of ['excelIncludeCellMetadata', 'excelIncludeCellFormatting']) {
        if (advanced[key] === true && !excelAdvanced) {
            issues.push(`parseConfig.advancedOptions.${key}: requires advancedOptions.excelParsingMode 'advanced'`);
        }
    }
    const figures = given.blockOptions?.figures;
    if (figures?.customInstructions !== undefined && figures.enabled !== true) {
        issues.push('parseConfig.blockOptions.figures.customInstructions: requires figures.enabled true');
    }
    const ranges = (advanced.pageRanges ?? []).map((range, index) => {
        const end = range.end ?? DEFAULT_PAGE_RANGE_END;
        if (end < range.start) {
            issues.push(`parseConfig.advancedOptions.pageRanges[${index}]: end ${end} is before start ${range.start}`);
        }
        return { start: range.start, end };
    });
    if (issues.length > 0)
        return { ok: false, issues };
    const pageRanges = ranges.length > 0 ? ranges : [{ start: 1, end: DEFAULT_PAGE_RANGE_END }];
    return {
        ok: true,
        config: {
            target,
            engine: given.engine ?? 'parse_performance',
            chunking,
            pageRanges,
            pageRotationEnabled: advanced.pageRotationEnabled ?? true,
            figures: figures?.enabled ?? true,
            tables: true,
            keyValue: given.blockOptions?.keyValue?.enabled ?? true,
            barcodesReading: given.blockOptions?.barcodes?.readingEnabled ?? false,
            returnOcrWords: advanced.returnOcr?.words ?? false,
            excel: {
                advanced: excelAdvanced,
                skipHidden: advanced.excelSkipHiddenContent ?? false,
                rawValues: advanced.excelUseRawCellValues ?? false,
                cellMetadata: advanced.excelIncludeCellMetadata ?? false,
                cellFormatting: advanced.excelIncludeCellFormatting ?? false,
                calculate: advanced.excelSkipCalculation === false,
            },
            applied: {
                ...given,
                target,
                chunkingStrategy: { ...given.chunkingStrategy, type: chunking },
                engine: given.engine ?? 'parse_performance',
                engineVersion: given.engineVersion ?? 'latest',
                advancedOptions: {
                    ...advanced,
                    pageRotationEnabled: advanced.pageRotationEnabled ?? true,
                    excelSkipHiddenContent: advanced.excelSkipHiddenContent ?? false,
                    excelUseRawCellValues: advanced.excelUseRawCellValues ?? false,
                    excelSkipCalculation: advanced.excelSkipCalculation ?? true,
                    excelIncludeCellMetadata: advanced.excelIncludeCellMetadata ?? false,
                    excelIncludeCellFormatting: advanced.excelIncludeCellFormatting ?? false,
                    ...(advanced.pageRanges === undefined ? {} : { pageRanges: ranges }),
                },
            },
        },
    };
}
/** True when 1-based `page` falls in one of the inclusive ranges. */
export function inPageRanges(page, ranges) {
    return ranges.some((range) => page >= range.start && page <= range.end);
}
//# sourceMappingURL=resolve-parse-config.js.map