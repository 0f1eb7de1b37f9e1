import type { PgDocumentRow } from './postgres-rows.ts';

interface PendingRead {
  readonly collection: string;
  readonly id: string;
  readonly resolve: (row: PgDocumentRow | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** What {@link DocumentReads} sends its statements with. */
export interface DocumentReadStatements {
  /** One document: `$1` collection, `$2` id. */
  readonly one: string;
  /** Several: `$1` collections, `$2` ids (text arrays of one length); a row per pair found. */
  readonly many: string;
  /** Runs a prepared statement, on a pooled connection; rejects with the storage error. */
  query(text: string, values: readonly unknown[]): Promise<readonly PgDocumentRow[]>;
}

/**
 * Document reads by id, made in one turn of the caller's code, go to the server as one
 * statement. A round trip costs the process and the server far more than a row does (in the step
 * benchmark a read cost the process about 47 µs and the server 35, mostly for the statement and
 * its socket traffic), and reads come in groups: a run's creation reads its workflow and its
 * files at once, and the runs a transaction settled are read together by their waiters. A read
 * is sent at the end of the turn it was asked in, so it sees every commit that resolved before.
 * Each caller gets rows of its own (a key asked twice is read twice), as it would alone.
 */
export class DocumentReads {
  readonly #s: DocumentReadStatements;
  #pending: PendingRead[] = [];

  constructor(statements: DocumentReadStatements) {
    this.#s = statements;
  }

  /** The row of document `collection/id`, or undefined. */
  get(collection: string, id: string): Promise<PgDocumentRow | undefined> {
    return new Promise((resolve, reject) => {
      if (this.#pending.push({ collection, id, resolve, reject }) === 1) {
        queueMicrotask(() => this.#send());
      }
    });
  }

  #send(): void {
    const reads = this.#pending;
    this.#pending = [];
    const first = reads[0] as PendingRead;
    if (reads.length === 1) {
      this.#s
        .query(this.#s.one, [first.collection, first.id])
        .then((rows) => first.resolve(rows[0]), first.reject);
      return;
    }
    this.#s.query(this.#s.many, [reads.map((r) => r.collection), reads.map((r) => r.id)]).then(
      (rows) => {
        // Rows come in the order of the pairs asked (`WITH ORDINALITY`), one per pair found.
        let next = 0;
        for (const read of reads) {
          const row = rows[next];
          if (row !== undefined && row.id === read.id && row.collection === read.collection) {
            next++;
            read.resolve(row);
          } else read.resolve(undefined);
        }
      },
      (error: unknown) => {
        for (const read of reads) read.reject(error);
      },
    );
  }
}
