import type { Page } from '../storage-adapter.ts';
import { decodePageToken, encodePageToken, queryFingerprint } from './page-token.ts';
import { checkOrder, checkPageSize } from './validate.ts';

/** A list query resolved to keyset terms: order, size, where to resume, and the fingerprint. */
export interface KeysetQuery {
  readonly order: 'asc' | 'desc';
  readonly pageSize: number;
  /** Continue strictly after (asc) or before (desc) this seq; undefined for the first page. */
  readonly afterSeq: number | undefined;
  readonly fingerprint: string;
}

/** Validates the common list options and decodes the page token against the query's filters. */
export function keysetQuery(
  scope: string,
  filters: Readonly<Record<string, unknown>>,
  options: { readonly order?: unknown; readonly pageSize?: unknown; readonly pageToken?: unknown },
): KeysetQuery {
  const order = checkOrder(options.order);
  const pageSize = checkPageSize(options.pageSize);
  const fingerprint = queryFingerprint(scope, filters);
  const afterSeq = decodePageToken(options.pageToken as string | undefined, order, fingerprint);
  return { order, pageSize, afterSeq, fingerprint };
}

/**
 * Builds a page from up to `pageSize + 1` rows already in page order: the extra row only tells
 * that there is a next page.
 */
export function toPage<R, T>(
  rows: readonly R[],
  query: KeysetQuery,
  seqOf: (row: R) => number,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > query.pageSize;
  const kept = more ? rows.slice(0, query.pageSize) : rows;
  const items = kept.map(map);
  const last = kept[kept.length - 1];
  if (!more || last === undefined) return { items };
  return { items, nextPageToken: encodePageToken(seqOf(last), query.order, query.fingerprint) };
}
