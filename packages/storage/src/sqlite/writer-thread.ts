/**
 * The entry of the SQLite writer thread (`writerThread: true`). One thread per process serves
 * every adapter that asks for one: `open` opens and migrates a database and returns its handle;
 * every other call runs on that database's {@link SqliteWriter}. Calls are answered in order.
 */
import { parentPort } from 'node:worker_threads';
import type { ConnectionSettings } from './sqlite-connection.ts';
import { openConnection } from './sqlite-connection.ts';
import { type CommitOutcome, SqliteWriter } from './sqlite-writer.ts';
import type { WriterCall, WriterReply } from './writer-protocol.ts';
import { toWire } from './writer-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('writer-thread.ts runs as a worker thread');
const send = (reply: WriterReply) => port.postMessage(reply);

interface Database {
  readonly db: ReturnType<typeof openConnection>;
  readonly writer: SqliteWriter;
}
const databases = new Map<number, Database>();
let nextHandle = 1;

function run(call: WriterCall): unknown {
  if (call.method === 'open') {
    const db = openConnection(call.args[0] as ConnectionSettings, true);
    try {
      const handle = nextHandle++;
      databases.set(handle, { db, writer: new SqliteWriter(db) });
      return handle;
    } catch (error) {
      db.close();
      throw error;
    }
  }
  const database = databases.get(call.handle);
  if (database === undefined) throw new Error(`no open database ${call.handle}`);
  if (call.method === 'close') {
    databases.delete(call.handle);
    database.db.close();
    return undefined;
  }
  const fn = database.writer[call.method] as (...args: unknown[]) => unknown;
  const value = fn.apply(database.writer, call.args as unknown[]);
  // A group's rejected commits carry errors, which must cross as data too.
  return call.method === 'commitGroup'
    ? (value as CommitOutcome[]).map((o) => (o.ok ? o : { ok: false, error: toWire(o.error) }))
    : value;
}

port.on('message', (call: WriterCall) => {
  try {
    send({ id: call.id, ok: true, value: run(call) });
  } catch (error) {
    send({ id: call.id, ok: false, error: toWire(error) });
  }
});
