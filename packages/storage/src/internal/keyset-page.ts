import type { Page } from '../storage-adapter.ts';
import { decodePageToken, encodePageToken, queryFingerprint } from './page-token.ts';
import { checkOrder, checkPageSize, checkSortBy } from './validate.ts';

/**
 * A list query resolved to keyset terms: the key (`seq`, or `(updatedAt, seq)`), order, size,
 * where to resume, and the fingerprint.
 */
export interface KeysetQuery {
  readonly sortBy: 'createdAt' | 'updatedAt';
  readonly order: 'asc' | 'desc';
  readonly pageSize: number;
  /** Continue strictly after (asc) or before (desc) this seq; undefined for the first page. */
  readonly afterSeq: number | undefined;
  /** With `sortBy: 'updatedAt'` and a cursor: its `updatedAt`, compared before `afterSeq`. */
  readonly afterUpdatedAt: string | undefined;
  readonly fingerprint: string;
}

/** Validates the common list options and decodes the page token against the query's filters. */
export function keysetQuery(
  scope: string,
  filters: Readonly<Record<string, unknown>>,
  options: {
    readonly order?: unknown;
    readonly sortBy?: unknown;
    readonly pageSize?: unknown;
    readonly pageToken?: unknown;
  },
): KeysetQuery {
  const order = checkOrder(options.order);
  const sortBy = checkSortBy(options.sortBy);
  const pageSize = checkPageSize(options.pageSize);
  // Creation order keeps the fingerprint it always had, so tokens handed out before stay valid.
  const fingerprint = queryFingerprint(
    scope,
    sortBy === 'updatedAt' ? { ...filters, sortBy } : filters,
  );
  const byUpdate = sortBy === 'updatedAt';
  const cursor = decodePageToken(
    options.pageToken as string | undefined,
    order,
    fingerprint,
    byUpdate,
  );
  return {
    sortBy,
    order,
    pageSize,
    afterSeq: cursor?.seq,
    afterUpdatedAt: cursor?.updatedAt,
    fingerprint,
  };
}

/**
 * Whether row `a` comes before row `b` in the query's order (for adapters that sort in memory):
 * by seq, or by `(updatedAt, seq)`.
 */
export function keysetCompare(
  q: Pick<KeysetQuery, 'sortBy' | 'order'>,
  a: { readonly seq: number; readonly updatedAt: string },
  b: { readonly seq: number; readonly updatedAt: string },
): number {
  const byKey =
    q.sortBy === 'updatedAt' && a.updatedAt !== b.updatedAt
      ? a.updatedAt < b.updatedAt
        ? -1
        : 1
      : a.seq - b.seq;
  return q.order === 'asc' ? byKey : -byKey;
}

/**
 * Builds a page from up to `pageSize + 1` rows already in page order: the extra row only tells
 * that there is a next page.
 */
export function toPage<R, T extends { readonly updatedAt: string }>(
  rows: readonly R[],
  query: KeysetQuery,
  seqOf: (row: R) => number,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > query.pageSize;
  const kept = more ? rows.slice(0, query.pageSize) : rows;
  const items = kept.map(map);
  const last = kept[kept.length - 1];
  const lastItem = items[items.length - 1];
  if (!more || last === undefined || lastItem === undefined) return { items };
  const cursor = {
    seq: seqOf(last),
    ...(query.sortBy === 'updatedAt' ? { updatedAt: lastItem.updatedAt } : {}),
  };
  return { items, nextPageToken: encodePageToken(cursor, query.order, query.fingerprint) };
}
