import { resolve } from 'node:path';
import type { Engine } from '@docflow/engine';
import type { ParseStepProgress } from '@docflow/steps';
import type { CliContext } from './cli-context.ts';
import { CliError } from './cli-error.ts';
import type { ModelProviderSettings } from './provider-options.ts';

/** The database file of `--db`, default `docflow.db` in the working directory. */
export function databasePath(context: CliContext, db: string | undefined): string {
  return resolve(context.cwd, db ?? 'docflow.db');
}

/** Options of {@link openEngine}. */
export interface OpenEngineOptions {
  /** The model provider of EXTRACT, CLASSIFY and SPLIT; the offline provider when absent. */
  readonly provider?: ModelProviderSettings | undefined;
  /** Hears the pages of every PARSE step as they are parsed. */
  readonly onParseProgress?: (progress: ParseStepProgress) => void;
}

/**
 * Opens and starts an engine on the SQLite file with every shipped executor. Starting resumes
 * the runs a previous process left unfinished; `stop()` hands unfinished work back to the file.
 */
export async function openEngine(dbPath: string, options: OpenEngineOptions = {}): Promise<Engine> {
  // Loaded here, not at the top: `--help` and `formula` should not pay for the parsers.
  const [{ createEngine }, { isStorageError }, { sqliteStorage }, { builtinSteps, modelProvider }] =
    await Promise.all([
      import('@docflow/engine'),
      import('@docflow/storage'),
      import('@docflow/storage/sqlite'),
      import('@docflow/steps'),
    ]);
  const engine = createEngine({
    storage: sqliteStorage({ path: dbPath }),
    steps: builtinSteps({
      ...(options.onParseProgress ? { parse: { onProgress: options.onParseProgress } } : {}),
      ...(options.provider ? { processors: { provider: modelProvider(options.provider) } } : {}),
    }),
  });
  try {
    await engine.start();
  } catch (error) {
    // Another engine writes this file: starting here would take its work over.
    if (isStorageError(error, 'DATABASE_IN_USE')) throw new CliError(error.message);
    throw error;
  }
  return engine;
}
