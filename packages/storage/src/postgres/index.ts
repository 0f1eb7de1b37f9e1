export type { CommitQueueStats } from './postgres-commit-queue.ts';
export type { PostgresMigration } from './postgres-migrations.ts';
export { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './postgres-migrations.ts';
export type {
  PostgresClient,
  PostgresNotification,
  PostgresPool,
  PostgresQuery,
  PostgresResult,
} from './postgres-pool.ts';
export type {
  PostgresConnection,
  PostgresStorageAdapter,
  PostgresStorageInfo,
  PostgresStorageOptions,
} from './postgres-storage.ts';
export { postgresStorage } from './postgres-storage.ts';
