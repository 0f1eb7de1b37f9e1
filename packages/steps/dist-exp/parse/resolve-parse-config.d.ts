import type { ChunkingStrategyType, PageRange, ParseConfig, ParseEngine, ParseTarget } from './parse-output.ts';
/** The interface's default end of a page range. */
export declare const DEFAULT_PAGE_RANGE_END = 750;
/** A ParseConfig with the interface's defaults applied, as the parsers read it. */
export interface ResolvedParseConfig {
    readonly target: ParseTarget;
    /** `parse_light` skips PDF graphics (rules, images); `parse_auto` reads them on complex pages only. */
    readonly engine: ParseEngine;
    readonly chunking: ChunkingStrategyType;
    /** Inclusive 1-based ranges with `end` defaulted; `[{ start: 1, end: 750 }]` when none given. */
    readonly pageRanges: readonly Required<PageRange>[];
    readonly pageRotationEnabled: boolean;
    readonly figures: boolean;
    readonly tables: boolean;
    readonly keyValue: boolean;
    readonly barcodesReading: boolean;
    readonly returnOcrWords: boolean;
    readonly excel: {
        readonly advanced: boolean;
        readonly skipHidden: boolean;
        readonly rawValues: boolean;
        readonly cellMetadata: boolean;
        readonly cellFormatting: boolean;
        /** Calculate formulas that have no cached value (`excelSkipCalculation: false`). */
        readonly calculate: boolean;
    };
    /** The config as given, with defaults applied, for `parseRun.config`. */
    readonly applied: ParseConfig;
}
/**
 * Validates a ParseConfig against its schema and the interface's cross-field rules and applies the
 * defaults. Returns the list of problems (`path: reason`) instead of throwing.
 */
export declare function resolveParseConfig(config: ParseConfig | undefined): {
    ok: true;
    config: ResolvedParseConfig;
} | {
    ok: false;
    issues: string[];
};
/** True when 1-based `page` falls in one of the inclusive ranges. */
export declare function inPageRanges(page: number, ranges: readonly Required<PageRange>[]): boolean;
//# sourceMappingURL=resolve-parse-config.d.ts.map