import type { Worker } from 'node:worker_threads';
import { StorageError } from '../errors.ts';
import type { CheckpointMessage, CheckpointReply } from './checkpoint-protocol.ts';
import { startThread } from './thread-entry.ts';

/** How often the checkpoint thread looks for databases written to (milliseconds). */
export const CHECKPOINT_INTERVAL_MS = 50;

/** One database's registration with the checkpoint thread. */
export interface BackgroundCheckpoints {
  /** Tells the thread that the database was written to (a counter in shared memory). */
  touch(): void;
  /** Unregisters; resolves once the thread has closed its connection. */
  stop(): Promise<void>;
}

interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, (reply: CheckpointReply) => void>;
}

let shared: Thread | undefined;
let nextId = 1;

function thread(): Thread {
  if (shared) return shared;
  const worker = startThread('checkpoint-thread', 'backgroundCheckpoints');
  // Idle, it must not keep the process alive; it is ref'ed while a message awaits its answer.
  worker.unref();
  const t: Thread = { worker, pending: new Map() };
  worker.on('message', (reply: CheckpointReply) => {
    const settle = t.pending.get(reply.id);
    t.pending.delete(reply.id);
    if (t.pending.size === 0) worker.unref();
    settle?.(reply);
  });
  const died = (error: Error) => {
    if (shared === t) shared = undefined;
    for (const settle of t.pending.values())
      settle({ id: 0, ok: false, message: `the checkpoint thread stopped: ${error.message}` });
    t.pending.clear();
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`exit code ${code}`)));
  shared = t;
  return t;
}

function send(t: Thread, message: CheckpointMessage): Promise<CheckpointReply> {
  return new Promise((resolve) => {
    if (t.pending.size === 0) t.worker.ref();
    t.pending.set(message.id, resolve);
    t.worker.postMessage(message);
  });
}

/**
 * Registers a file database with the process's checkpoint thread, which copies its WAL into the
 * database file while the writer goes on writing. Without it, the commit that crosses
 * `walCheckpointPages` copies the whole WAL itself, and every commit behind it waits: with 10,000
 * pages, about 30 ms every few hundred milliseconds of full load (bench/README.md).
 */
export async function startBackgroundCheckpoints(
  path: string,
  synchronous: 'NORMAL' | 'FULL',
): Promise<BackgroundCheckpoints> {
  const t = thread();
  const id = nextId++;
  const activity = new Int32Array(new SharedArrayBuffer(4));
  const reply = await send(t, {
    type: 'add',
    id,
    path,
    synchronous,
    intervalMs: CHECKPOINT_INTERVAL_MS,
    activity,
  });
  if (!reply.ok) {
    throw new StorageError('DATABASE_ERROR', `backgroundCheckpoints: ${reply.message}`);
  }
  let stopped = false;
  return {
    touch() {
      Atomics.add(activity, 0, 1);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      // A thread that ended took its connection with it.
      if (shared !== t) return;
      await send(t, { type: 'remove', id });
    },
  };
}
