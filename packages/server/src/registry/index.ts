/**
 * `@docflow/server/registry`: organizations, workspaces and API keys without the HTTP server
 * (what `docflow api-keys` needs, loaded without Fastify or the engine).
 */
export type { CreatedApiKey } from '../auth/api-keys.ts';
export { API_KEY_PREFIX, createApiKey, hashApiKey, isWellFormedApiKey } from '../auth/api-keys.ts';
export type { ServerStorage } from '../server-storage.ts';
export { serverStorage, workspacesDirectory } from '../server-storage.ts';
export type {
  ApiKeyRecord,
  ApiKeyScope,
  CreateApiKeyInput,
  Organization,
  ServerRegistry,
  Workspace,
} from './registry.ts';
export type { SqliteRegistryOptions } from './sqlite-registry.ts';
export { sqliteRegistry } from './sqlite-registry.ts';
