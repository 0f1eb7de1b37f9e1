import { resolve } from 'node:path';
import type { WireChanges } from './serialized-changes.ts';
import type { DocumentRow } from './sqlite-rows.ts';

/** Documents kept at most; past that the cache starts over. */
const LIMIT = 1024;
/** Documents whose JSON is longer than this are read from the database every time. */
const MAX_DATA_CHARS = 4096;

/**
 * Rows of small documents read by id, for every adapter of one database file in this process
 * (so that one adapter's write is seen by the others). A run's creation reads its workflow and its
 * file by id; both rarely change, and a read costs a statement and a read lock each time.
 *
 * It rests on the design's rule that one process writes a SQLite file: every write of a document
 * goes through `commit()` of an adapter in this process, which forgets the documents it writes
 * when it is called and again once they are stored (a read in between may have cached the row
 * before the write). Rows are strings and numbers, never handed out: each read still builds a
 * fresh document from its row.
 */
export class DocumentCache {
  readonly #rows = new Map<string, DocumentRow>();
  /** Adapters open on the file. */
  users = 0;

  get(collection: string, id: string): DocumentRow | undefined {
    return this.#rows.get(`${collection}\u0000${id}`);
  }

  set(row: DocumentRow): void {
    if (row.data.length > MAX_DATA_CHARS) return;
    if (this.#rows.size >= LIMIT) this.#rows.clear();
    this.#rows.set(`${row.collection}\u0000${row.id}`, row);
  }

  /** Forgets the documents a commit writes or deletes. */
  forget(changes: WireChanges): void {
    if (this.#rows.size === 0) return;
    for (const d of changes.documents ?? []) this.#rows.delete(`${d.collection}\u0000${d.id}`);
    for (const d of changes.deleteDocuments ?? []) {
      this.#rows.delete(`${d.collection}\u0000${d.id}`);
    }
  }
}

const byFile = new Map<string, DocumentCache>();

/** The cache of the database at `path` (a private one for `:memory:`); pair with `release`. */
export function acquireDocumentCache(path: string): DocumentCache {
  if (path === ':memory:') return new DocumentCache();
  const key = resolve(path);
  let cache = byFile.get(key);
  if (cache === undefined) {
    cache = new DocumentCache();
    byFile.set(key, cache);
  }
  cache.users++;
  return cache;
}

/** An adapter closed: the file's cache goes with its last adapter. */
export function releaseDocumentCache(path: string, cache: DocumentCache): void {
  if (path === ':memory:') return;
  const key = resolve(path);
  if (--cache.users === 0 && byFile.get(key) === cache) byFile.delete(key);
}
