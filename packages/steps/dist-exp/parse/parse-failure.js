/**
 * Thrown inside the parsers when a document cannot be parsed; {@link parseDocument} turns it into
 * a failure value, so it never escapes the PARSE step.
 */
export class ParseFailure extends Error {
    name = 'ParseFailure';
    reason;
    constructor(reason, message, options = {}) {
        super(message, options.cause === undefined ? undefined : { cause: options.cause });
        this.reason = reason;
    }
}
/** True when `value` is a {@link ParseFailure}. */
export function isParseFailure(value) {
    return value instanceof ParseFailure;
}
//# sourceMappingURL=parse-failure.js.map