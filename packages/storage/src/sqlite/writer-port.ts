import { StorageError } from '../errors.ts';
import type { ConnectionSettings } from './sqlite-connection.ts';
import type { CommitOutcome, SqliteWriter } from './sqlite-writer.ts';
import { startThread } from './thread-entry.ts';
import {
  fromWire,
  type WireError,
  type WriterCall,
  type WriterMethod,
  type WriterReply,
} from './writer-protocol.ts';

type Method<M extends WriterMethod> = SqliteWriter[M] extends (...args: infer A) => infer R
  ? { args: A; result: R }
  : never;

/** The adapter's way to its writer, in its own thread or in a worker thread. */
export interface WriterPort {
  /** Whether calls cross to a worker thread. */
  readonly threaded: boolean;
  call<M extends WriterMethod>(method: M, ...args: Method<M>['args']): Promise<Method<M>['result']>;
  close(): Promise<void>;
}

/** A port that calls `writer` in this thread (and closes nothing: the adapter owns its db). */
export function inlineWriter(writer: SqliteWriter): WriterPort {
  return {
    threaded: false,
    call(method, ...args) {
      try {
        const fn = writer[method] as (...a: unknown[]) => unknown;
        return Promise.resolve(fn.apply(writer, args)) as never;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    close: () => Promise.resolve(),
  };
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The process's writer thread, started on first use and shared by every adapter. */
interface WriterThread {
  call(handle: number, method: WriterCall['method'], args: readonly unknown[]): Promise<unknown>;
  terminate(): Promise<void>;
  /** True once the thread has ended. */
  readonly stopped: boolean;
}

let shared: WriterThread | undefined;

function writerThread(): WriterThread {
  if (shared) return shared;
  const worker = startThread('writer-thread', 'writerThread');
  // An idle writer must not keep the process alive; one with calls in flight must.
  worker.unref();
  const pending = new Map<number, Pending>();
  let next = 0;
  let stopped: StorageError | undefined;
  const thread: WriterThread = {
    call(handle, method, args) {
      // A dead thread answers nothing: every later call fails at once instead of waiting.
      if (stopped) return Promise.reject(stopped);
      const id = next++;
      if (pending.size === 0) worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, handle, method, args } satisfies WriterCall);
      });
    },
    async terminate() {
      await worker.terminate();
    },
    get stopped() {
      return stopped !== undefined;
    },
  };
  worker.on('message', (reply: WriterReply) => {
    const p = pending.get(reply.id);
    if (p === undefined) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) p.resolve(reply.value);
    else p.reject(fromWire(reply.error));
  });
  const died = (error: Error) => {
    const failure = new StorageError(
      'DATABASE_ERROR',
      `the SQLite writer thread stopped: ${error.message}`,
      { cause: error },
    );
    stopped ??= failure;
    if (shared === thread) shared = undefined;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`exit code ${code}`)));
  shared = thread;
  return thread;
}

/**
 * Ends the process's writer thread, if one runs. Adapters still open on it fail their later
 * calls with `DATABASE_ERROR`; the next adapter that asks for a thread starts a new one.
 */
export async function terminateWriterThread(): Promise<void> {
  const thread = shared;
  shared = undefined;
  await thread?.terminate();
}

/**
 * Opens (and migrates) the database on the process's writer thread, which performs every write
 * of the returned port. Rejects with the opening error.
 */
export async function startWriterThread(settings: ConnectionSettings): Promise<WriterPort> {
  const thread = writerThread();
  const handle = (await thread.call(0, 'open', [settings])) as number;
  let closed = false;
  return {
    threaded: true,
    call(method, ...args) {
      if (closed) return Promise.reject(new StorageError('NOT_OPEN', 'the storage is closed'));
      const result = thread.call(handle, method, args);
      if (method !== 'commitGroup') return result as never;
      return result.then((value) =>
        (value as (CommitOutcome | { ok: false; error: WireError })[]).map((o) =>
          o.ok ? o : { ok: false, error: fromWire(o.error as WireError) },
        ),
      ) as never;
    },
    async close() {
      if (closed) return;
      closed = true;
      // A thread that ended took its connection with it: nothing is left to close.
      if (thread.stopped) return;
      await thread.call(handle, 'close', []);
    },
  };
}
