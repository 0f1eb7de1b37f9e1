/** A page as every list endpoint answers it. */
export interface Page<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly nextPageToken?: string;
}

/** One page of a list: how every engine list is read. */
export type ListPage<T> = (params: {
  maxPageSize: number;
  nextPageToken?: string;
}) => Promise<Page<T>>;

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
  list: ListPage<T>,
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

/**
 * The interface's `fileNameContains`: a run id matches that run, a file id the runs on that file, any
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

/** The first item of a whole list that `match` accepts, reading it 1,000 at a time. */
export async function findInList<T>(
  list: ListPage<T>,
  match: (item: T) => boolean,
): Promise<T | undefined> {
  let token: string | undefined;
  do {
    const page = await list({
      maxPageSize: 1000,
      ...(token === undefined ? {} : { nextPageToken: token }),
    });
    const found = page.data.find(match);
    if (found !== undefined) return found;
    token = page.nextPageToken;
  } while (token !== undefined);
  return undefined;
}

/** Every item of a list (a batch's runs: at most 1,000). */
export async function allOfList<T>(list: ListPage<T>): Promise<T[]> {
  const items: T[] = [];
  await findInList(list, (item) => {
    items.push(item);
    return false;
  });
  return items;
}
