import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import type { ServerRegistry, Workspace } from './registry/registry.ts';
import { sqliteRegistry } from './registry/sqlite-registry.ts';

/** Where a server keeps its registry and its workspaces' engines. */
export interface ServerStorage {
  readonly registry: ServerRegistry;
  readonly workspaceStorage: (workspace: Workspace) => StorageAdapter;
}

/** The folder of the workspace databases that go with registry file `db`. */
export function workspacesDirectory(db: string): string {
  return `${db}.workspaces`;
}

/**
 * The SQLite layout behind `--db PATH`: the registry (organizations, workspaces, key hashes) in
 * `PATH`, and each workspace's engine in `PATH.workspaces/<workspace id>.db`, a database of its
 * own (decision 0009). `':memory:'` keeps everything in memory (tests).
 *
 * @example
 * const server = await createServer({ ...serverStorage({ db: 'docflow.db' }) });
 */
export function serverStorage(options: { readonly db: string }): ServerStorage {
  if (options.db === ':memory:') {
    return {
      registry: sqliteRegistry({ path: ':memory:' }),
      workspaceStorage: () => memoryStorage(),
    };
  }
  const directory = workspacesDirectory(options.db);
  return {
    registry: sqliteRegistry({ path: options.db }),
    workspaceStorage(workspace) {
      mkdirSync(directory, { recursive: true });
      return sqliteStorage({ path: join(directory, `${workspace.id}.db`) });
    },
  };
}
