/**
 * The one place the CLI decides where a server keeps its registry and workspaces: the SQLite
 * layout of `--db PATH`, or with `--postgres URL` each workspace's engine in a PostgreSQL schema
 * of its own (several server processes on one database share them), the registry staying in
 * the SQLite file of `--db`.
 */
import type { ServerStorage } from '@docflow/server/registry';
import type { CliContext } from './cli-context.ts';
import {
  databasePath,
  describeStorage,
  engineStorage,
  type StorageFlags,
  workspaceSchema,
} from './engine-storage.ts';

/** Storage options the server commands take. */
export type ServerStorageOptions = StorageFlags;

/** The server storage the options name, and a line describing it for humans. */
export async function chooseServerStorage(
  context: CliContext,
  options: ServerStorageOptions,
): Promise<{ storage: ServerStorage; description: string }> {
  const { serverStorage, workspacesDirectory } = await import('@docflow/server/registry');
  const db = databasePath(context, options.db);
  const chosen = engineStorage(context, options);
  if (chosen.kind === 'postgres') {
    const { registry } = serverStorage({ db });
    const { postgresStorage } = await import('@docflow/storage/postgres');
    return {
      storage: {
        registry,
        workspaceStorage: (workspace) =>
          postgresStorage(
            { connectionString: chosen.connectionString },
            {
              schema: workspaceSchema(chosen.schema, workspace.id),
              applicationName: 'docflow-serve',
            },
          ),
      },
      description: `registry SQLite ${db}; workspaces on ${describeStorage(chosen)}_ws_<digest of the workspace id>`,
    };
  }
  return {
    storage: serverStorage({ db }),
    description: `SQLite ${db} (workspaces in ${workspacesDirectory(db)})`,
  };
}
