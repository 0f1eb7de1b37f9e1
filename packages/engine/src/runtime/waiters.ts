import type { StorageAdapter } from '@docflow/storage';
import { EngineError, EngineErrorCode } from '../errors.ts';

/**
 * How often a waiter reads its run again on a store shared by processes (undefined elsewhere:
 * this process's commits settle every run it has). Where the store can `subscribe`, another
 * process's commit that settles a run wakes its waiters here (`Waiters.poke`): the reads every
 * minute are only a safety net. Without it, every 250 ms.
 */
export function sharedStorePollMs(storage: StorageAdapter): number | undefined {
  if (storage.sharedByProcesses !== true) return undefined;
  return storage.subscribe === undefined ? 250 : 60_000;
}

/**
 * Callers waiting for a run to settle (`waitFor`), by run id. The runtime resolves them after
 * the commit that settled the run; a waiter gives up on its timeout or its signal.
 */
export class Waiters<T> {
  readonly #byId = new Map<string, Set<(value: T) => void>>();
  /** The waits' reads of their runs, by run id (see `poke`). */
  readonly #looks = new Map<string, Set<() => void>>();

  /** Calls `listener` once `id` settles; returns a function that removes it. */
  add(id: string, listener: (value: T) => void): () => void {
    const set = setOf(this.#byId, id);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#byId.get(id) === set) this.#byId.delete(id);
    };
  }

  /**
   * Another process settled these runs (or, `undefined`, may have settled any): their waits
   * read them again.
   */
  poke(ids: readonly string[] | undefined): void {
    if (ids === undefined) {
      for (const looks of [...this.#looks.values()]) for (const look of [...looks]) look();
      return;
    }
    for (const id of ids) {
      const looks = this.#looks.get(id);
      if (looks) for (const look of [...looks]) look();
    }
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
      // One read at a time; a poke during a read reads again after it.
      let reading = false;
      let again = false;
      const reads = setOf(this.#looks, id);
      let registered: (() => void) | undefined;
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
        if (registered) reads.delete(registered);
        if (reads.size === 0 && this.#looks.get(id) === reads) this.#looks.delete(id);
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
        if (!active) return;
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        if (poll) clearTimeout(poll);
        current().then(
          (value) => {
            reading = false;
            if (!active) return;
            if (value !== undefined && done(value)) finish(value);
            else if (again) {
              again = false;
              look();
            } else if (options.pollMs !== undefined) poll = setTimeout(look, options.pollMs);
          },
          (error: unknown) => {
            reading = false;
            if (!active) return;
            cleanup();
            reject(error);
          },
        );
      };
      registered = look;
      reads.add(look);
      look();
    });
  }
}

/** The set kept under `key`, made when missing. */
function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}
