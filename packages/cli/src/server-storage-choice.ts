/**
 * The one place the CLI decides where a server keeps its registry and workspaces. Today: the
 * SQLite layout of `--db PATH`; a `--postgres URL` choice joins here.
 */
import type { ServerStorage } from '@docflow/server/registry';
import type { CliContext } from './cli-context.ts';
import { databasePath } from './open-engine.ts';

/** Storage options the server commands take. */
export interface ServerStorageOptions {
  readonly db?: string | undefined;
}

/** The server storage the options name, and a line describing it for humans. */
export async function chooseServerStorage(
  context: CliContext,
  options: ServerStorageOptions,
): Promise<{ storage: ServerStorage; description: string }> {
  const { serverStorage, workspacesDirectory } = await import('@docflow/server/registry');
  const db = databasePath(context, options.db);
  return {
    storage: serverStorage({ db }),
    description: `SQLite ${db} (workspaces in ${workspacesDirectory(db)})`,
  };
}
