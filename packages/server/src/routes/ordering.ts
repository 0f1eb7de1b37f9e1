/** How a list query asks to be ordered (the interface's `sortBy`, `sortDir`). */
export interface OrderQuery {
  readonly sortBy?: 'createdAt' | 'updatedAt' | undefined;
  readonly sortDir?: 'asc' | 'desc' | undefined;
}

/**
 * The order of a list, as the engine's list methods take it: by creation (the default) or by
 * the last change (`sortBy=updatedAt`, ties in creation order), newest first unless
 * `sortDir=asc`. Only what the query gave is passed on, so the engine's defaults stay its own.
 */
export function listOrder(query: OrderQuery): OrderQuery {
  return {
    ...(query.sortBy === undefined ? {} : { sortBy: query.sortBy }),
    ...(query.sortDir === undefined ? {} : { sortDir: query.sortDir }),
  };
}
