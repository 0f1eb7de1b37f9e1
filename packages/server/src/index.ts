export type { CreatedApiKey } from './auth/api-keys.ts';
export { API_KEY_PREFIX, createApiKey, hashApiKey, isWellFormedApiKey } from './auth/api-keys.ts';
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
  Organization,
  ServerRegistry,
  Workspace,
} from './registry/registry.ts';
export type { SqliteRegistryOptions } from './registry/sqlite-registry.ts';
export { sqliteRegistry } from './registry/sqlite-registry.ts';
export type { ServerStorage } from './server-storage.ts';
export { serverStorage, workspacesDirectory } from './server-storage.ts';
