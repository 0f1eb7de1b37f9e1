import { isStorageError, type ListOptions, type Page } from '@docflow/storage';
import { assertNoIssues, EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';

/** The interface list response: `{ object: "list", data, nextPageToken? }`. */
export interface ListResult<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly nextPageToken?: string;
}

/** Pagination parameters of every list method (the interface's "Pagination"). */
export interface PageParams {
  /** Default 10, at most 1000. */
  readonly maxPageSize?: number | undefined;
  /** The `nextPageToken` of the previous page of the same list. */
  readonly nextPageToken?: string | undefined;
}

/** Pagination of lists that can be sorted (the interface's `sortBy`, `sortDir`). */
export interface SortedPageParams extends PageParams {
  /**
   * Default `createdAt` (creation order). `updatedAt`: by the time of the last change, ties in
   * creation order; an item changed while you page moves, so it can be seen twice or missed.
   */
  readonly sortBy?: 'createdAt' | 'updatedAt' | undefined;
  /** Default `desc`: newest first. */
  readonly sortDir?: 'asc' | 'desc' | undefined;
}

/** The storage side of a page: what every storage list call takes. */
export type StoragePage = Pick<ListOptions, 'pageSize' | 'pageToken' | 'order' | 'sortBy'>;

/** Every problem of pagination parameters, named by their public names. */
export function pageIssues(params: unknown): ValidationIssue[] {
  if (params === undefined) return [];
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return [{ code: 'INVALID_TYPE', path: '', message: 'list parameters must be an object' }];
  }
  const { maxPageSize, nextPageToken, sortBy, sortDir } = params as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (
    maxPageSize !== undefined &&
    (!Number.isInteger(maxPageSize) ||
      (maxPageSize as number) < 1 ||
      (maxPageSize as number) > 1000)
  ) {
    issues.push({
      code: 'INVALID_PAGE_SIZE',
      path: 'maxPageSize',
      message: `must be an integer from 1 to 1000, got ${JSON.stringify(maxPageSize)}`,
    });
  }
  if (nextPageToken !== undefined && (typeof nextPageToken !== 'string' || nextPageToken === '')) {
    issues.push({
      code: 'INVALID_PAGE_TOKEN',
      path: 'nextPageToken',
      message: 'must be the nextPageToken of a previous page of this list',
    });
  }
  if (sortBy !== undefined && sortBy !== 'createdAt' && sortBy !== 'updatedAt') {
    issues.push({
      code: 'INVALID_SORT_BY',
      path: 'sortBy',
      message: `must be "createdAt" or "updatedAt", got ${JSON.stringify(sortBy)}`,
    });
  }
  if (sortDir !== undefined && sortDir !== 'asc' && sortDir !== 'desc') {
    issues.push({
      code: 'INVALID_SORT_DIR',
      path: 'sortDir',
      message: `must be "asc" or "desc", got ${JSON.stringify(sortDir)}`,
    });
  }
  return issues;
}

/**
 * Lists one page: checks the pagination parameters (and `extraIssues` of the caller's filters),
 * asks storage for the page, and maps its items. Storage's refusals come back under the public
 * names: a token of another list or order is an issue at `nextPageToken`.
 *
 * @example
 * return listPage(params, (page) => ctx.storage.listDocuments('files', { ...page, nameContains }), toFileSummary);
 */
export async function listPage<S, T>(
  params: SortedPageParams | undefined,
  list: (page: StoragePage) => Promise<Page<S>>,
  map: (item: S) => T | Promise<T>,
  extraIssues: readonly ValidationIssue[] = [],
): Promise<ListResult<T>> {
  assertNoIssues([...pageIssues(params), ...extraIssues], 'list parameters');
  const storagePage: StoragePage = {
    pageSize: params?.maxPageSize ?? 10,
    ...(params?.nextPageToken === undefined ? {} : { pageToken: params.nextPageToken }),
    ...(params?.sortDir === undefined ? {} : { order: params.sortDir }),
    ...(params?.sortBy === undefined ? {} : { sortBy: params.sortBy }),
  };
  let page: Page<S>;
  try {
    page = await list(storagePage);
  } catch (error) {
    if (isStorageError(error, 'INVALID_PAGE_TOKEN')) {
      throw new EngineError(
        EngineErrorCode.VALIDATION_FAILED,
        'Invalid list parameters: nextPageToken is not a token of this list',
        {
          cause: error,
          details: {
            issues: [
              {
                code: 'INVALID_PAGE_TOKEN',
                path: 'nextPageToken',
                message:
                  'is not a token of this list: pass the nextPageToken of a previous page of the same list, with the same filters, sortBy and sortDir',
              },
            ],
          },
        },
      );
    }
    if (isStorageError(error, 'INVALID_ARGUMENT')) {
      throw new EngineError(
        EngineErrorCode.VALIDATION_FAILED,
        `Invalid list parameters: ${error.message}`,
        {
          cause: error,
          details: { issues: [{ code: 'INVALID_FILTER', path: '', message: error.message }] },
        },
      );
    }
    throw error;
  }
  const mapped = page.items.map(map);
  const data = mapped.some((item) => item instanceof Promise)
    ? await Promise.all(mapped)
    : (mapped as T[]);
  return page.nextPageToken === undefined
    ? { object: 'list', data }
    : { object: 'list', data, nextPageToken: page.nextPageToken };
}
