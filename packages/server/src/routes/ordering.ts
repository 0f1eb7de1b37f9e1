import { notSupported } from '../http/api-error.ts';

/**
 * The order docflow lists in: by creation (`sortBy=createdAt`, the only one), newest first or
 * oldest first (`sortDir`). Another `sortBy` is refused by name rather than answered in
 * another order.
 */
export function checkOrder(query: {
  readonly sortBy?: string | undefined;
  readonly sortDir?: string | undefined;
}): void {
  if (query.sortBy !== undefined && query.sortBy !== 'createdAt') {
    throw notSupported(
      'query.sortBy',
      'docflow lists by creation only: use sortBy=createdAt or leave it out',
    );
  }
}
