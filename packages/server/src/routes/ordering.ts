import { notSupported } from '../http/api-error.ts';

/**
 * The orders docflow lists in: by creation (`sortBy=createdAt`, the only one), newest first, and
 * oldest first where the engine can (`ascending`). Anything else is refused by name rather than
 * answered in another order.
 */
export function checkOrder(
  query: { readonly sortBy?: string | undefined; readonly sortDir?: string | undefined },
  options: { readonly ascending: boolean },
): void {
  if (query.sortBy !== undefined && query.sortBy !== 'createdAt') {
    throw notSupported(
      'query.sortBy',
      'docflow lists by creation only: use sortBy=createdAt or leave it out',
    );
  }
  if (query.sortDir === 'asc' && !options.ascending) {
    throw notSupported(
      'query.sortDir',
      'this list is newest first only: use sortDir=desc or leave it out',
    );
  }
}
