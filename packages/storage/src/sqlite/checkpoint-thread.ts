/**
 * The entry of the checkpoint thread (`backgroundCheckpoints`). One thread per process copies
 * the WAL of every file database that adapters registered back into the database file: every
 * `intervalMs`, a database written to since its last checkpoint gets a PASSIVE checkpoint over a
 * connection of this thread. A PASSIVE checkpoint takes no lock that writers wait for, so writes
 * go on meanwhile; the writer's own automatic checkpoint (`walCheckpointPages`) is left only the
 * frames written since, and restarts the WAL.
 */
import { parentPort } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CheckpointMessage } from './checkpoint-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('checkpoint-thread.ts runs as a worker thread');

interface Registered {
  readonly db: BetterSqlite3.Database;
  /** Incremented by the adapter on every commit. */
  readonly activity: Int32Array;
  seen: number;
}
const databases = new Map<number, Registered>();
let timer: NodeJS.Timeout | undefined;

function checkpointAll(): void {
  for (const d of databases.values()) {
    const now = Atomics.load(d.activity, 0);
    if (now === d.seen) continue;
    d.seen = now;
    try {
      d.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or failing: the writer's own automatic checkpoint still bounds the WAL.
    }
  }
}

port.on('message', (m: CheckpointMessage) => {
  if (m.type === 'add') {
    try {
      const db = new BetterSqlite3(m.path);
      // A checkpoint syncs the database file as the writer's would (NORMAL or FULL).
      db.pragma(`synchronous = ${m.synchronous}`);
      databases.set(m.id, { db, activity: m.activity, seen: Atomics.load(m.activity, 0) });
      timer ??= setInterval(checkpointAll, m.intervalMs);
      port.postMessage({ id: m.id, ok: true });
    } catch (error) {
      port.postMessage({ id: m.id, ok: false, message: (error as Error).message });
    }
    return;
  }
  const d = databases.get(m.id);
  databases.delete(m.id);
  try {
    d?.db.close();
  } finally {
    if (databases.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
    port.postMessage({ id: m.id, ok: true });
  }
});
