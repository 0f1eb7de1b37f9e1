import type { ParseFailureReason } from './parse-output.ts';
/**
 * Thrown inside the parsers when a document cannot be parsed; {@link parseDocument} turns it into
 * a failure value, so it never escapes the PARSE step.
 */
export declare class ParseFailure extends Error {
    readonly name = "ParseFailure";
    readonly reason: ParseFailureReason;
    constructor(reason: ParseFailureReason, message: string, options?: {
        cause?: unknown;
    });
}
/** True when `value` is a {@link ParseFailure}. */
export declare function isParseFailure(value: unknown): value is ParseFailure;
//# sourceMappingURL=parse-failure.d.ts.map