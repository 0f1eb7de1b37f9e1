/**
 * A structured logger, as pino's: one method per level, each taking the record's fields and a
 * message. A pino logger (or a child of one) fits as it is; so does anything with these four
 * methods (winston and bunyan through a small adapter). The engine writes ids, types, statuses,
 * durations and failure reasons; never run metadata, outputs, file contents or secrets.
 *
 * @example
 * import pino from 'pino';
 * const engine = createEngine({ storage, steps: builtinSteps(), logger: pino({ level: 'debug' }) });
 */
export interface EngineLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A level of {@link EngineLogger}. */
export type LogLevel = keyof EngineLogger;
