import { setTimeout as wait } from 'node:timers/promises';
import { isStorageError } from '@docflow/storage';

/** Waits between attempts of a write while storage fails: doubling from the first, at most the last. */
const FIRST_WAIT_MS = 50;
const LONGEST_WAIT_MS = 2_000;

/** File-system error codes that say the storage (not the data) failed, and may work again. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EAGAIN', 'EBUSY']);

/**
 * True when `error` says the storage itself failed (the database or the disk: full, I/O error),
 * as opposed to what was written (a revision conflict, a run deleted meanwhile).
 */
export function isStorageFailure(error: unknown): boolean {
  if (isStorageError(error, 'DATABASE_ERROR')) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_CODES.has(code);
}

/** What {@link writeUntilStored} needs. */
export interface StorageRetryOptions {
  /** Aborted by `engine.stop()`: the write is given up (its work runs again at the next start). */
  readonly signal: AbortSignal;
  /** Told once per outage: the first failure (not every attempt). */
  readonly onError: (error: unknown) => void;
}

/**
 * Writes an outcome that exists only in memory (an executor's result) until the storage takes
 * it: while the storage fails (disk full, I/O error) the write is tried again, waiting 50 ms
 * doubling to 2 s of real time (not the engine's clock: this is infrastructure), and the failure is reported once, not at every attempt. Other errors, and a
 * stop, end it with the error. `write` reloads what it changes each time (the run stores drop
 * their cached state when a commit fails), so what memory holds is what the disk holds.
 */
export async function writeUntilStored<T>(
  write: () => Promise<T>,
  options: StorageRetryOptions,
): Promise<T> {
  let delay = FIRST_WAIT_MS;
  let reported = false;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isStorageFailure(error) || options.signal.aborted) throw error;
      if (!reported) options.onError(error);
      reported = true;
      await wait(delay, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal.aborted) throw error;
      delay = Math.min(delay * 2, LONGEST_WAIT_MS);
    }
  }
}
