import { createHash } from 'node:crypto';
import pg from 'pg';

/** A query as the adapter sends it: node-postgres's query config. */
export interface PostgresQuery {
  readonly text: string;
  readonly values?: readonly unknown[];
  /** A prepared statement's name (the same text always gets the same name). */
  readonly name?: string;
  readonly types?: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

/** What a query returns. */
export interface PostgresResult {
  readonly rows: readonly Record<string, unknown>[];
  readonly rowCount: number | null;
  /** The command tag: `COMMIT`, or `ROLLBACK` for a COMMIT of a failed transaction. */
  readonly command?: string;
}

/** A LISTEN notification. */
export interface PostgresNotification {
  readonly channel: string;
  readonly payload?: string | undefined;
}

/**
 * The part of a node-postgres client the adapter uses. Structural, so that any pool whose
 * clients behave like `pg`'s works (Kysely's lesson: a contract over the driver's shape, not
 * its classes).
 */
export interface PostgresClient {
  query(query: PostgresQuery): Promise<PostgresResult>;
  /** Gives the client back to its pool; `true` or an error destroys it instead. */
  release(destroy?: boolean | Error): void;
  on(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a node-postgres `Pool` the adapter uses (see {@link PostgresClient}). */
export interface PostgresPool {
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
}

/**
 * The adapter reads `bigint` columns (sequences, epoch milliseconds) as numbers: they stay far
 * below 2^53. `pg` would return strings. Other types keep `pg`'s parsers (`json` → JSON.parse,
 * `bytea` → Buffer).
 */
const INT8_OID = 20;
const types = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (oid === INT8_OID) return Number;
    return pg.types.getTypeParser(oid, (format ?? 'text') as 'text') as (value: string) => unknown;
  },
};

const names = new Map<string, string>();

/**
 * A query config with the adapter's type parsers and, for statements run often, a prepared
 * statement name derived from the text: adapters of different schemas sharing one pool have
 * different texts, hence different names.
 */
export function queryConfig(
  text: string,
  values?: readonly unknown[],
  prepared = false,
): PostgresQuery {
  if (!prepared) return values === undefined ? { text, types } : { text, values, types };
  let name = names.get(text);
  if (name === undefined) {
    name = `docflow_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values: values ?? [], types };
}

/** Options of the pool the adapter makes from a connection string. */
export interface OwnPoolOptions {
  readonly connectionString: string;
  readonly max: number;
  readonly applicationName: string;
  /** `SET` statements every new connection runs before anything else (its session's settings). */
  readonly session: string;
}

/**
 * The adapter's own pool: `pg.Pool` with pipelining on (node-postgres 8.23's `pipeline`: queries
 * sent together go in one write and come back in order, so a commit is one round trip). Each new
 * connection first runs `session` (queued before the queries of whoever takes it, so sent first).
 */
export function createOwnPool(options: OwnPoolOptions): PostgresPool {
  const config: pg.PoolConfig & { pipeline: boolean } = {
    connectionString: options.connectionString,
    max: options.max,
    application_name: options.applicationName,
    pipeline: true,
    idleTimeoutMillis: 30_000,
  };
  const pool = new pg.Pool(config);
  // An idle client that loses its connection emits on the pool; the next query reconnects.
  pool.on('error', () => undefined);
  // A failure here is the connection's, which its next query meets too.
  pool.on('connect', (client) => void client.query(options.session).catch(() => undefined));
  return pool as unknown as PostgresPool;
}

/** A dedicated connection (not pooled) for LISTEN, from a connection string. */
export async function connectListener(connectionString: string, applicationName: string) {
  const client = new pg.Client({ connectionString, application_name: applicationName });
  await client.connect();
  return client;
}

/**
 * Runs `send` (which issues queries without awaiting them) with the client's socket corked, so
 * that everything it sends leaves in one write. node-postgres writes each protocol message of a
 * query (bind, describe, execute, sync) with a call of its own, each a system call: a fifth of
 * the adapter's CPU in a step benchmark went to them. Clients that are not node-postgres's (no
 * `connection.stream`) send as they would.
 */
export function sendCorked<T>(client: PostgresClient, send: () => T): T {
  const stream = (client as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return send();
  stream.cork();
  try {
    return send();
  } finally {
    stream.uncork();
  }
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * A pool whose clients take one query at a time unless they pipeline: the adapter sends a
 * commit's statements without waiting in between, which a node-postgres client in pipeline mode
 * (the adapter's own pool) puts on the wire together, and any other client would queue itself,
 * a use node-postgres deprecates (pg 9 removes it). A client of a pool the caller gave, without
 * `pipeline: true`, gets each query once the one before it has answered.
 */
export function oneQueryAtATime(pool: PostgresPool): PostgresPool {
  return {
    connect: async () => inOrder(await pool.connect()),
    end: () => pool.end(),
  };
}

function inOrder(client: PostgresClient): PostgresClient {
  if ((client as { pipeline?: unknown }).pipeline === true) return client;
  let tail: Promise<unknown> = Promise.resolve();
  return {
    query(query) {
      const answer = tail.then(() => client.query(query));
      tail = answer.catch(() => undefined);
      return answer;
    },
    release: (destroy) => client.release(destroy),
    on: (event: 'notification' | 'error', listener: never) => client.on(event as never, listener),
    removeListener: (event: 'notification' | 'error', listener: never) =>
      client.removeListener(event as never, listener),
  };
}
