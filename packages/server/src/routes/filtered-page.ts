/** A page as every list endpoint answers it. */
export interface Page<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly nextPageToken?: string;
}

/** Runs read at most this many items looking for one page of matches. */
const SCAN_LIMIT = 10_000;

/**
 * A page of the items `keep` accepts, read through a list that cannot filter by itself. Each
 * read asks for only as many items as the page still lacks, so the list's own token after it
 * is always a correct place to go on from. A scan that reads {@link SCAN_LIMIT} items without
 * filling the page returns what it found with the token to go on (a short page with a token is
 * a valid page).
 */
export async function filteredPage<T>(
  list: (params: { maxPageSize: number; nextPageToken?: string }) => Promise<Page<T>>,
  keep: (item: T) => boolean,
  params: { maxPageSize?: number | undefined; nextPageToken?: string | undefined },
): Promise<Page<T>> {
  const size = params.maxPageSize ?? 10;
  const data: T[] = [];
  let token = params.nextPageToken;
  let scanned = 0;
  while (data.length < size && scanned < SCAN_LIMIT) {
    const page = await list({
      maxPageSize: size - data.length,
      ...(token === undefined ? {} : { nextPageToken: token }),
    });
    scanned += page.data.length;
    for (const item of page.data) if (keep(item)) data.push(item);
    token = page.nextPageToken;
    if (token === undefined) break;
  }
  return token === undefined
    ? { object: 'list', data }
    : { object: 'list', data, nextPageToken: token };
}

/** Drops `undefined` values, for passing optional parameters to strict engine inputs. */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/**
 * SPEC.md's `fileNameContains`: a run id matches that run, a file id the runs on that file, any
 * other text the runs with a file whose name contains it (case-insensitively).
 */
export function matchesFileName(
  text: string,
  run: {
    readonly id: string;
    readonly files: readonly { readonly id: string; readonly name: string }[];
  },
): boolean {
  if (text === run.id) return true;
  if (text.startsWith('file_')) return run.files.some((f) => f.id === text);
  const needle = text.toLowerCase();
  return run.files.some((f) => f.name.toLowerCase().includes(needle));
}
