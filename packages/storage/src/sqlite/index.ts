export type { Migration } from './migrations.ts';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
export type {
  SqliteStorageAdapter,
  SqliteStorageInfo,
  SqliteStorageOptions,
} from './sqlite-storage.ts';
export { sqliteStorage } from './sqlite-storage.ts';
export { terminateWriterThread } from './writer-port.ts';
