import { isEngineError } from '@docflow/engine';
import { ApiError, type ApiIssue } from './api-error.ts';

/** Where the paths of an engine's issues point in the request. */
export type IssueLocation = 'body' | 'query';

function locate(issues: readonly ApiIssue[] | undefined, location: IssueLocation): ApiIssue[] {
  return (issues ?? []).map((issue) => ({
    ...issue,
    // The engine names a looked-up id `id`; in a request that id is the path parameter.
    path:
      issue.path === 'id'
        ? 'params.id'
        : issue.path === ''
          ? location
          : `${location}.${issue.path}`,
  }));
}

const FASTIFY_CODES: Readonly<Record<string, (error: Error) => ApiError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError('REQUEST_TOO_LARGE', 'The request body is larger than the server accepts'),
  FST_REQ_FILE_TOO_LARGE: () =>
    new ApiError('REQUEST_TOO_LARGE', 'The uploaded file is larger than the server accepts'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (e) =>
    new ApiError(
      'INVALID_REQUEST',
      `${e.message}; send application/json (uploads: multipart/form-data)`,
    ),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    new ApiError('INVALID_REQUEST', 'The request is not multipart/form-data'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiError('INVALID_REQUEST', 'The body is empty; send a JSON object'),
};

/**
 * Every error a request can end with, as an {@link ApiError}: the engine's codes map onto
 * The interface's statuses (an invalid state is 422, never 409), framework and multipart errors onto
 * 400, and anything else is a 500 that says nothing of the server's insides.
 */
export function toApiError(error: unknown, location: IssueLocation): ApiError {
  if (error instanceof ApiError) return error;
  if (isEngineError(error)) {
    const issues = locate(error.details.issues as readonly ApiIssue[] | undefined, location);
    switch (error.code) {
      case 'VALIDATION_FAILED':
        // A request whose only problem is ids that name nothing here is a 404: resources of
        // other workspaces are as absent as ids that never existed.
        if (issues.length > 0 && issues.every((i) => i.code === 'NOT_FOUND')) {
          return new ApiError('NOT_FOUND', error.message, { issues, cause: error });
        }
        return new ApiError('INVALID_REQUEST', error.message, { issues, cause: error });
      case 'NOT_FOUND':
        return new ApiError('NOT_FOUND', error.message, { issues, cause: error });
      case 'INVALID_STATE':
        return new ApiError('INVALID_STATE', error.message, { cause: error });
      case 'CONFLICT':
        return new ApiError('CONFLICT', error.message, { cause: error });
      case 'INVALID_CONFIGURATION':
        // With issues, the request asked for something this server is not set up to do (schema
        // generation without a model provider); without, the server itself is misconfigured.
        if (issues.length > 0)
          return new ApiError('NOT_SUPPORTED', error.message, { issues, cause: error });
        return new ApiError('INTERNAL_ERROR', 'The server failed; nothing was changed', {
          cause: error,
        });
      default:
        return new ApiError('INTERNAL_ERROR', 'The server failed; nothing was changed', {
          cause: error,
        });
    }
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const make = typeof code === 'string' ? FASTIFY_CODES[code] : undefined;
    if (make) return make(error);
    const status = (error as { statusCode?: unknown }).statusCode;
    if (error instanceof SyntaxError && status === 400) {
      return new ApiError('INVALID_REQUEST', `The body is not valid JSON: ${error.message}`);
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return new ApiError('INVALID_REQUEST', error.message, { cause: error });
    }
  }
  return new ApiError('INTERNAL_ERROR', 'The server failed; nothing was changed', { cause: error });
}
