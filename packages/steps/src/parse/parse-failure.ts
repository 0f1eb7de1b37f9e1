import type { ParseFailureReason } from './parse-output.ts';

/**
 * Thrown inside the parsers when a document cannot be parsed; {@link parseDocument} turns it into
 * a failure value, so it never escapes the PARSE step.
 */
export class ParseFailure extends Error {
  override readonly name = 'ParseFailure';
  readonly reason: ParseFailureReason;

  constructor(reason: ParseFailureReason, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

/** True when `value` is a {@link ParseFailure}. */
export function isParseFailure(value: unknown): value is ParseFailure {
  return value instanceof ParseFailure;
}
