import type { Engine } from '@docflow/engine';
import type { ParseStepProgress } from '@docflow/steps';
import { CliError } from './cli-error.ts';
import { type EngineStorage, storageAdapter } from './engine-storage.ts';
import type { ModelProviderSettings } from './provider-options.ts';

/** Options of {@link openEngine}. */
export interface OpenEngineOptions {
  /** The model provider of EXTRACT, CLASSIFY and SPLIT; the offline provider when absent. */
  readonly provider?: ModelProviderSettings | undefined;
  /** Hears the pages of every PARSE step as they are parsed. */
  readonly onParseProgress?: (progress: ParseStepProgress) => void;
}

/**
 * Opens and starts an engine on the SQLite file or the PostgreSQL schema with every shipped
 * executor. Starting resumes the runs a previous process left unfinished (on PostgreSQL, it
 * works beside the other processes there); `stop()` hands unfinished work back to the store.
 */
export async function openEngine(
  storage: EngineStorage,
  options: OpenEngineOptions = {},
): Promise<Engine> {
  // Loaded here, not at the top: `--help` and `formula` should not pay for the parsers.
  const [{ createEngine }, { isStorageError }, { builtinSteps, modelProvider }, adapter] =
    await Promise.all([
      import('@docflow/engine'),
      import('@docflow/storage'),
      import('@docflow/steps'),
      storageAdapter(storage),
    ]);
  const engine = createEngine({
    storage: adapter,
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
    // An unreachable server, a refused login: the user's to fix.
    if (isStorageError(error)) throw new CliError(error.message);
    throw error;
  }
  return engine;
}
