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

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `clock.now().toISOString()`. For the system clock the text is made once per millisecond: a
 * step's commit asks for the time several times, mostly within one millisecond, and a `Date`
 * and its formatting each time showed in profiles.
 */
export function isoNow(clock: Clock): string {
  if (clock !== systemClock) return clock.now().toISOString();
  const ms = Date.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
