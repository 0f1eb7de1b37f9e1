import { StorageError } from '../errors.ts';

/**
 * Where a keyset page stopped: the last row's `seq` (and its `updatedAt` in a list by update
 * time), and what query it belongs to.
 */
interface TokenBody {
  readonly v: 1;
  /** Last seq returned. */
  readonly s: number;
  /** Last `updatedAt` returned; only in a list sorted by `updatedAt`. */
  readonly u?: string;
  /** Order: `a` or `d`. */
  readonly o: 'a' | 'd';
  /** Fingerprint of the query's filters. */
  readonly f: string;
}

/**
 * A short fingerprint of a query's scope and filters. A token carries it so that a cursor taken
 * from one filter cannot silently skip rows of another (the interface only warns; we refuse).
 */
export function queryFingerprint(
  scope: string,
  filters: Readonly<Record<string, unknown>>,
): string {
  const text = `${scope}\u0000${JSON.stringify(Object.entries(filters).filter(([, v]) => v !== undefined))}`;
  // FNV-1a, 32 bits: enough to tell queries apart, not a security boundary.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** The position a page ends at: the last row's seq, and its `updatedAt` when sorted by it. */
export interface PageCursor {
  readonly seq: number;
  readonly updatedAt?: string | undefined;
}

/** Encodes the cursor after `last`. */
export function encodePageToken(
  last: PageCursor,
  order: 'asc' | 'desc',
  fingerprint: string,
): string {
  const body: TokenBody = {
    v: 1,
    s: last.seq,
    ...(last.updatedAt === undefined ? {} : { u: last.updatedAt }),
    o: order === 'asc' ? 'a' : 'd',
    f: fingerprint,
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Decodes a token and returns the cursor to continue after, or `undefined` for the first page.
 * Throws `INVALID_PAGE_TOKEN` for a token of another query, order or adapter, or one without
 * the `updatedAt` a list by update time needs.
 */
export function decodePageToken(
  token: string | undefined,
  order: 'asc' | 'desc',
  fingerprint: string,
  byUpdate = false,
): PageCursor | undefined {
  if (token === undefined) return undefined;
  let body: unknown;
  try {
    body =
      typeof token === 'string'
        ? JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
        : undefined;
  } catch {
    body = undefined;
  }
  const b = body as Partial<TokenBody> | undefined;
  if (
    typeof b !== 'object' ||
    b === null ||
    b.v !== 1 ||
    typeof b.s !== 'number' ||
    !Number.isSafeInteger(b.s) ||
    (b.o !== 'a' && b.o !== 'd') ||
    typeof b.f !== 'string' ||
    (byUpdate ? typeof b.u !== 'string' : b.u !== undefined)
  ) {
    throw new StorageError('INVALID_PAGE_TOKEN', 'pageToken is not a page token of this adapter', {
      details: { path: 'pageToken' },
    });
  }
  if (b.o !== (order === 'asc' ? 'a' : 'd') || b.f !== fingerprint) {
    throw new StorageError(
      'INVALID_PAGE_TOKEN',
      'pageToken belongs to a query with other filters or another order; repeat the same query to continue',
      { details: { path: 'pageToken' } },
    );
  }
  return byUpdate ? { seq: b.s, updatedAt: b.u } : { seq: b.s };
}
