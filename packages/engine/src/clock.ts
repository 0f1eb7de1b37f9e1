/** Time as the engine sees it. Tests inject a controllable clock (`@docflow/engine/testing`). */
export interface Clock {
  now(): Date;
  /** Resolves after `ms`, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `listener` whenever time jumps (a test clock's `advance`), so that schedulers look for
   * work that became due. Real clocks need not implement it.
   */
  onAdvance?(listener: () => void): () => void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
