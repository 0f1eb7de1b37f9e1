import type { Clock } from '../clock.ts';

/** A clock that only moves when told to: backoff and timeouts cost no real time in tests. */
export interface TestClock extends Clock {
  /** Moves time forward, resolving every sleep that falls due, in order. */
  advance(ms: number): Promise<void>;
  /** Sets the time (forward only). */
  set(date: Date | string): Promise<void>;
  /** Sleeps not yet due. */
  readonly pendingSleeps: number;
}

interface Sleeper {
  readonly at: number;
  readonly resolve: () => void;
}

/**
 * Creates a {@link TestClock} starting at `start` (default 2026-01-01T00:00:00Z).
 *
 * @example
 * const clock = createTestClock();
 * const engine = createEngine({ clock });
 * await clock.advance(60_000); // retries due within a minute run now
 */
export function createTestClock(start: Date | string = '2026-01-01T00:00:00.000Z'): TestClock {
  let now = new Date(start).getTime();
  const sleepers = new Set<Sleeper>();
  const listeners = new Set<() => void>();
  const flush = async () => {
    for (;;) {
      const due = [...sleepers].filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
      if (due.length === 0) break;
      for (const s of due) {
        sleepers.delete(s);
        s.resolve();
      }
      // Let continuations of resolved sleeps run before the next round.
      await new Promise((r) => setImmediate(r));
    }
    for (const l of listeners) l();
  };
  return {
    now: () => new Date(now),
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper: Sleeper = {
          at: now + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.delete(sleeper);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.add(sleeper);
      });
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async advance(ms) {
      now += ms;
      await flush();
    },
    async set(date) {
      now = Math.max(now, new Date(date).getTime());
      await flush();
    },
    get pendingSleeps() {
      return sleepers.size;
    },
  };
}
