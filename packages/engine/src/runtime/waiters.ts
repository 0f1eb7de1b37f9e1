import type { StorageAdapter } from '@docflow/storage';
import { EngineError, EngineErrorCode } from '../errors.ts';

/**
 * How often a waiter reads its run again on a store shared by processes (undefined elsewhere:
 * this process's commits settle every run it has).
 */
export function sharedStorePollMs(storage: StorageAdapter): number | undefined {
  return storage.sharedByProcesses === true ? 250 : undefined;
}

/**
 * Callers waiting for a run to settle (`waitFor`), by run id. The runtime resolves them after
 * the commit that settled the run; a waiter gives up on its timeout or its signal.
 */
export class Waiters<T> {
  readonly #byId = new Map<string, Set<(value: T) => void>>();

  /** Calls `listener` once `id` settles; returns a function that removes it. */
  add(id: string, listener: (value: T) => void): () => void {
    let set = this.#byId.get(id);
    if (!set) {
      set = new Set();
      this.#byId.set(id, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#byId.get(id) === set) this.#byId.delete(id);
    };
  }

  /** `id` settled with `value`: every waiter is told, and forgotten. */
  settle(id: string, value: T): void {
    const set = this.#byId.get(id);
    if (!set) return;
    this.#byId.delete(id);
    for (const listener of set) listener(value);
  }

  /**
   * Waits until `id` settles: `current` reads the latest value (after the waiter is registered,
   * so that a settlement in between is not missed) and `done` says whether a value is settled.
   * Rejects with TIMEOUT after `timeoutMs`, or with the signal's reason.
   */
  wait(
    id: string,
    what: string,
    current: () => Promise<T | undefined>,
    done: (value: T) => boolean,
    options: {
      readonly timeoutMs?: number | undefined;
      readonly signal?: AbortSignal | undefined;
      /**
       * Reads `current` again this often (on a store shared by processes, another process may
       * settle the run: its commit resolves no waiter here).
       */
      readonly pollMs?: number | undefined;
    } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let poll: NodeJS.Timeout | undefined;
      let active = true;
      const finish = (value: T) => {
        cleanup();
        resolve(value);
      };
      const remove = this.add(id, finish);
      const onAbort = () => {
        cleanup();
        reject(options.signal?.reason);
      };
      const cleanup = () => {
        active = false;
        remove();
        if (timer) clearTimeout(timer);
        if (poll) clearTimeout(poll);
        options.signal?.removeEventListener('abort', onAbort);
      };
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          cleanup();
          reject(
            new EngineError(
              EngineErrorCode.TIMEOUT,
              `${what} ${id} did not settle within ${options.timeoutMs} ms`,
            ),
          );
        }, options.timeoutMs);
      }
      if (options.signal?.aborted) {
        onAbort();
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const look = (): void => {
        current().then(
          (value) => {
            if (!active) return;
            if (value !== undefined && done(value)) finish(value);
            else if (options.pollMs !== undefined) poll = setTimeout(look, options.pollMs);
          },
          (error: unknown) => {
            if (!active) return;
            cleanup();
            reject(error);
          },
        );
      };
      look();
    });
  }
}
