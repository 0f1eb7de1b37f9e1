export type { DocflowServer, ServerLimits, ServerOptions } from './create-server.ts';
export { createServer } from './create-server.ts';
export type { ApiErrorCode, ApiErrorSpec, ApiIssue, ErrorBody } from './http/api-error.ts';
export { API_ERRORS, ApiError } from './http/api-error.ts';
export type { RequestHeaderNames } from './http/header-names.ts';
export {
  API_VERSION,
  DEFAULT_SERVER_HEADER_WORD,
  REQUEST_ID_HEADER,
  requestHeaderNames,
} from './http/header-names.ts';
export type {
  ApiKeyRecord,
  ApiKeyScope,
  CreateApiKeyInput,
  CreatedApiKey,
  Organization,
  ServerRegistry,
  ServerStorage,
  SqliteRegistryOptions,
  Workspace,
} from './registry/index.ts';
export {
  API_KEY_PREFIX,
  createApiKey,
  hashApiKey,
  isWellFormedApiKey,
  serverStorage,
  sqliteRegistry,
  workspacesDirectory,
} from './registry/index.ts';
