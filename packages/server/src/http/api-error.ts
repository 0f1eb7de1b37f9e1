/**
 * The errors of the HTTP interface: the interface's body (`code`, `message`, `retryable`,
 * `requestId`, `docUrl`) with the interface's statuses only. Every code is documented in
 * docs/errors/server.md (a test keeps the two in step) and served at `GET /errors/{code}`.
 */

/** A documented error code: its status, whether a retry may succeed, and what it means. */
export interface ApiErrorSpec {
  readonly status: 400 | 401 | 402 | 403 | 404 | 422 | 429 | 500;
  readonly retryable: boolean;
  readonly meaning: string;
}

/** Every code the server answers with. */
export const API_ERRORS = {
  INVALID_REQUEST: {
    status: 400,
    retryable: false,
    meaning:
      'The request is malformed: a field, query parameter or header is missing, of the wrong type, unknown, or out of range. `issues` names each path.',
  },
  NOT_SUPPORTED: {
    status: 400,
    retryable: false,
    meaning:
      'A parameter or value the interface defines but docflow does not implement (for example `convertToPdf=true`). The message names it and what to do instead.',
  },
  REQUEST_TOO_LARGE: {
    status: 400,
    retryable: false,
    meaning: 'The body exceeds the limit (uploads: 100 MB by default; JSON bodies: 10 MB).',
  },
  REQUEST_TIMEOUT: {
    status: 400,
    retryable: true,
    meaning: 'The body stopped arriving for longer than the body timeout; nothing was stored.',
  },
  UNAUTHORIZED: {
    status: 401,
    retryable: false,
    meaning:
      'The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown or revoked.',
  },
  FORBIDDEN: {
    status: 403,
    retryable: false,
    meaning:
      "The key is valid but cannot reach the workspace named by the workspace header (another workspace, or a workspace outside the key's organization).",
  },
  PRESIGNED_URL_INVALID: {
    status: 403,
    retryable: false,
    meaning:
      'A presigned URL whose signature does not match: it was altered or made by another server.',
  },
  PRESIGNED_URL_EXPIRED: {
    status: 403,
    retryable: false,
    meaning:
      'A presigned URL past its expiry (15 minutes for files and parse outputs, one hour for webhook payloads).',
  },
  NOT_FOUND: {
    status: 404,
    retryable: false,
    meaning:
      'No such resource in this workspace (resources of other workspaces are never visible), or no such route.',
  },
  INVALID_STATE: {
    status: 422,
    retryable: false,
    meaning:
      'The resource is not in a state that allows the operation: cancelling a finished run, reviewing a run that is not NEEDS_REVIEW.',
  },
  CONFLICT: {
    status: 422,
    retryable: true,
    meaning: 'A concurrent change to the same resource won; nothing changed. Retry.',
  },
  SYNC_TIMEOUT: {
    status: 422,
    retryable: false,
    meaning:
      'A synchronous endpoint (POST /parse, /extract, /classify, /split) ran out of time. The run goes on: fetch it by `runId`; do not resubmit.',
  },
  RATE_LIMITED: {
    status: 429,
    retryable: true,
    meaning: 'Too many requests with this key; wait for `Retry-After` seconds.',
  },
  INTERNAL_ERROR: {
    status: 500,
    retryable: true,
    meaning:
      'The server failed before storing anything (storage unavailable, shutting down). Retry with backoff.',
  },
} as const satisfies Record<string, ApiErrorSpec>;

/** A code of {@link API_ERRORS}. */
export type ApiErrorCode = keyof typeof API_ERRORS;

/** One offending path of a request, as `issues` lists them. */
export interface ApiIssue {
  readonly code: string;
  /** Where: `body.file.id`, `query.maxPageSize`, `header.x-extend-api-version`. */
  readonly path: string;
  readonly message: string;
}

/** An error answered with the interface's body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly status: ApiErrorSpec['status'];
  readonly retryable: boolean;
  readonly issues: readonly ApiIssue[];
  /** The run a timed-out synchronous request left behind. */
  readonly runId: string | undefined;
  /** Seconds to wait, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ApiErrorCode,
    message: string,
    options: {
      issues?: readonly ApiIssue[];
      runId?: string;
      retryAfterSeconds?: number;
      retryable?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = API_ERRORS[code].status;
    this.retryable = options.retryable ?? API_ERRORS[code].retryable;
    this.issues = options.issues ?? [];
    this.runId = options.runId;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The interface's error body, with docflow's `issues` when the request had offending paths. */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly requestId?: string;
  readonly docUrl?: string;
  readonly runId?: string;
  readonly issues?: readonly ApiIssue[];
}

/** The body of `error` for the request `requestId`; `docUrl` points at `GET /errors/{code}`. */
export function errorBody(
  error: ApiError,
  requestId: string,
  origin: string | undefined,
): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    requestId,
    ...(origin === undefined ? {} : { docUrl: `${origin}/errors/${error.code}` }),
    ...(error.runId === undefined ? {} : { runId: error.runId }),
    ...(error.issues.length === 0 ? {} : { issues: error.issues }),
  };
}

/** Shorthand for a 400 INVALID_REQUEST naming one path. */
export function invalidRequest(path: string, message: string, code = 'INVALID'): ApiError {
  return new ApiError('INVALID_REQUEST', `${path}: ${message}`, {
    issues: [{ code, path, message }],
  });
}

/** Shorthand for a 400 NOT_SUPPORTED naming one path. */
export function notSupported(path: string, message: string): ApiError {
  return new ApiError('NOT_SUPPORTED', `${path}: ${message}`, {
    issues: [{ code: 'NOT_SUPPORTED', path, message }],
  });
}
