import type { EngineLogger } from './engine-logger.ts';

/**
 * Where failures the engine survives go (a listener threw, storage failed in a background loop):
 * to `onError` when the host gives one, and to the logger as `engine.error` records when it gives
 * one; with neither, to the console, so that they are never silent.
 */
export function errorReporter(
  onError: ((error: unknown) => void) | undefined,
  logger: EngineLogger | undefined,
): (error: unknown) => void {
  const log =
    logger === undefined
      ? undefined
      : (error: unknown) => logger.error({ event: 'engine.error', err: error }, 'engine error');
  if (onError !== undefined && log !== undefined) {
    return (error) => {
      log(error);
      onError(error);
    };
  }
  return onError ?? log ?? ((error) => console.error('[docflow]', error));
}
