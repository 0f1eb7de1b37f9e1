import { isStorageError, type Page } from '@docflow/storage';
import { EngineError, EngineErrorCode } from '../errors.ts';

/** SPEC.md list response: `{ object: "list", data, nextPageToken? }`. */
export interface ListResult<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly nextPageToken?: string;
}

/** Pagination parameters of every list method (SPEC.md "Pagination"). */
export interface PageParams {
  /** Default 10, at most 1000. */
  readonly maxPageSize?: number | undefined;
  readonly nextPageToken?: string | undefined;
}

/** Checks page parameters, naming the offending field. */
export function pageOptions(params: PageParams | undefined): {
  pageSize: number;
  pageToken?: string;
} {
  const size = params?.maxPageSize ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new EngineError(
      EngineErrorCode.VALIDATION_FAILED,
      `maxPageSize must be an integer from 1 to 1000, got ${String(size)}`,
      {
        details: {
          issues: [
            {
              code: 'INVALID_PAGE_SIZE',
              path: 'maxPageSize',
              message: 'must be an integer from 1 to 1000',
            },
          ],
        },
      },
    );
  }
  return params?.nextPageToken === undefined
    ? { pageSize: size }
    : { pageSize: size, pageToken: params.nextPageToken };
}

/** Maps a storage page to a list result. */
export function toListResult<S, T>(
  page: Pick<Page<S>, 'items' | 'nextPageToken'>,
  map: (item: S) => T,
): ListResult<T> {
  const data = page.items.map(map);
  return page.nextPageToken === undefined
    ? { object: 'list', data }
    : { object: 'list', data, nextPageToken: page.nextPageToken };
}

/** Runs a storage list call, turning a bad page token into a validation error. */
export async function listing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStorageError(error, 'INVALID_PAGE_TOKEN') || isStorageError(error, 'INVALID_ARGUMENT')) {
      throw new EngineError(EngineErrorCode.VALIDATION_FAILED, error.message, {
        cause: error,
        details: {
          issues: [{ code: error.code, path: 'nextPageToken', message: error.message }],
        },
      });
    }
    throw error;
  }
}

/** The NOT_FOUND error of a resource. */
export function notFound(kind: string, id: string, path = 'id'): EngineError {
  return new EngineError(
    EngineErrorCode.NOT_FOUND,
    `${kind} ${JSON.stringify(id)} does not exist`,
    {
      details: { issues: [{ code: 'NOT_FOUND', path, message: `${kind} ${id} does not exist` }] },
    },
  );
}
