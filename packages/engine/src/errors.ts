import { isStorageError } from '@docflow/storage';

/** Stable codes of {@link EngineError}. Every code is documented in `docs/errors.md`. */
export const EngineErrorCode = {
  /** Input failed validation; `details.issues` lists every offending path. */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** A referenced resource does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** The resource is not in a state that allows the operation (reviewing a run that is not waiting, cancelling a terminal run). */
  INVALID_STATE: 'INVALID_STATE',
  /** A concurrent change won; retry with fresh data. */
  CONFLICT: 'CONFLICT',
  /** The engine was used before `start()` or after `stop()`. */
  NOT_STARTED: 'NOT_STARTED',
  /** A wait ran out of time. */
  TIMEOUT: 'TIMEOUT',
  /** The engine's configuration is invalid (options of createEngine, executors). */
  INVALID_CONFIGURATION: 'INVALID_CONFIGURATION',
  /** Storage failed underneath; see `cause`. */
  STORAGE_ERROR: 'STORAGE_ERROR',
  /** An outgoing request's URL (or a redirect hop, or the address its host resolved to) is refused by the URL policy. */
  URL_REFUSED: 'URL_REFUSED',
  /** A response body was larger than the limit of its kind of request; the connection was dropped. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
} as const;

/** An {@link EngineError} code. */
export type EngineErrorCode = (typeof EngineErrorCode)[keyof typeof EngineErrorCode];

/** One problem found in input, named by its path (`steps[3].next[0].classificationId`). */
export interface ValidationIssue {
  /** A stable code for the kind of problem (`UNKNOWN_STEP`, `CYCLE`, …). */
  readonly code: string;
  /** Where, as a JS-like path into the input. */
  readonly path: string;
  readonly message: string;
}

/** Thrown by the engine for bad input, bad state and infrastructure failures. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly retryable: boolean;
  readonly details: {
    readonly issues?: readonly ValidationIssue[];
    readonly [key: string]: unknown;
  };

  constructor(
    code: EngineErrorCode,
    message: string,
    options: {
      retryable?: boolean;
      details?: { issues?: readonly ValidationIssue[]; [key: string]: unknown };
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** True when `value` is an {@link EngineError}, optionally with the given code. */
export function isEngineError(value: unknown, code?: EngineErrorCode): value is EngineError {
  return value instanceof EngineError && (code === undefined || value.code === code);
}

/** Throws VALIDATION_FAILED listing `issues` when there are any. */
export function assertNoIssues(issues: readonly ValidationIssue[], what: string): void {
  if (issues.length === 0) return;
  const first = issues[0];
  const summary =
    issues.length === 1 && first
      ? `${first.path}: ${first.message}`
      : `${issues.length} problems, first ${first?.path}: ${first?.message}`;
  throw new EngineError(EngineErrorCode.VALIDATION_FAILED, `Invalid ${what}: ${summary}`, {
    details: { issues },
  });
}

/** Retryability lives on the error (Temporal): executors throw this for infrastructure failures. */
export class StepError extends Error {
  override readonly name = 'StepError';
  /** An interface failure reason used when retries are exhausted (default INTERNAL_ERROR). */
  readonly reason: string;
  readonly retryable: boolean;

  constructor(
    message: string,
    options: { retryable?: boolean; reason?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? true;
    this.reason = options.reason ?? 'INTERNAL_ERROR';
  }
}

/**
 * The NOT_FOUND error of a resource: what it is (`workflow run`), the id asked for, and the path
 * of the input that named it (`id` for a method's argument, `file.id` inside a request).
 */
export function notFound(what: string, id: unknown, path = 'id'): EngineError {
  const shown = describeValue(id);
  const message = `${what} ${shown} does not exist`;
  return new EngineError(EngineErrorCode.NOT_FOUND, message, {
    details: { id: shown, issues: [{ code: 'NOT_FOUND', path, message }] },
  });
}

/**
 * A value as a message shows it: a string as it is, anything else as JSON (or its tag), never
 * throwing (`String()` throws for an object without a prototype).
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? Object.prototype.toString.call(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * What a public method rejects with when storage refused or failed underneath: a contract
 * violation from the input (an id of the wrong shape) is VALIDATION_FAILED at its path, a
 * concurrent change CONFLICT, any other storage failure STORAGE_ERROR (its code in `details`),
 * each with the `StorageError` as `cause`. EngineErrors and other errors pass as they are.
 */
export function toEngineError(error: unknown, what = 'Storage'): unknown {
  if (!isStorageError(error)) return error;
  if (error.code === 'INVALID_ARGUMENT') {
    const path = typeof error.details.path === 'string' ? error.details.path : '';
    return new EngineError(EngineErrorCode.VALIDATION_FAILED, `Invalid input: ${error.message}`, {
      cause: error,
      details: { issues: [{ code: 'INVALID_VALUE', path, message: error.message }] },
    });
  }
  if (error.code === 'REVISION_CONFLICT' || error.code === 'DUPLICATE_KEY') {
    return new EngineError(EngineErrorCode.CONFLICT, `${what} was changed concurrently; retry`, {
      retryable: true,
      cause: error,
    });
  }
  return new EngineError(EngineErrorCode.STORAGE_ERROR, `Storage failed: ${error.message}`, {
    retryable: error.retryable,
    cause: error,
    details: { storageCode: error.code },
  });
}
