import type { CollectionName, DeliveryQuery, DocumentQuery, RunQuery } from '../storage-adapter.ts';
import { type KeysetQuery, keysetQuery } from './keyset-page.ts';
import {
  checkCollection,
  checkOptionalBoolean,
  checkOptionalString,
  checkString,
} from './validate.ts';

/**
 * A list query of the SQL adapters, checked, as keyset terms and column filters: equality on a
 * column, or (`contains`) a lower-cased substring of `name_folded`. Each adapter writes the SQL.
 */
export interface SqlListQuery {
  readonly q: KeysetQuery;
  readonly filters: readonly SqlListFilter[];
}

/** One condition of a {@link SqlListQuery}. */
export type SqlListFilter =
  | { readonly op: 'eq'; readonly column: string; readonly value: string | boolean }
  | { readonly op: 'contains'; readonly column: 'name_folded'; readonly value: string };

function eq(column: string, value: string | boolean | undefined): SqlListFilter[] {
  return value === undefined ? [] : [{ op: 'eq', column, value }];
}

/** `listDocuments` of `collection`, checked. */
export function documentListQuery(collection: CollectionName, query: DocumentQuery): SqlListQuery {
  checkCollection(collection, 'collection');
  const { parentId, secondaryId, nameContains } = query;
  checkOptionalString(parentId, 'parentId');
  checkOptionalString(secondaryId, 'secondaryId');
  if (nameContains !== undefined && typeof nameContains !== 'string')
    checkString(nameContains, 'nameContains');
  const q = keysetQuery(`documents:${collection}`, { parentId, secondaryId, nameContains }, query);
  return {
    q,
    filters: [
      ...eq('collection', collection),
      ...eq('parent_id', parentId),
      ...eq('secondary_id', secondaryId),
      ...(nameContains === undefined
        ? []
        : [
            {
              op: 'contains' as const,
              column: 'name_folded' as const,
              value: nameContains.toLowerCase(),
            },
          ]),
    ],
  };
}

/** `listRuns`, checked. */
export function runListQuery(query: RunQuery): SqlListQuery {
  const { kind, workflowId, batchId, status, active } = query;
  checkOptionalString(kind, 'kind');
  checkOptionalString(workflowId, 'workflowId');
  checkOptionalString(batchId, 'batchId');
  checkOptionalString(status, 'status');
  checkOptionalBoolean(active, 'active');
  const q = keysetQuery('runs', { kind, workflowId, batchId, status, active }, query);
  return {
    q,
    filters: [
      ...eq('kind', kind),
      ...eq('workflow_id', workflowId),
      ...eq('batch_id', batchId),
      ...eq('status', status),
      ...eq('active', active),
    ],
  };
}

/** `listDeliveries`, checked. */
export function deliveryListQuery(query: DeliveryQuery): SqlListQuery {
  const { endpointId, eventId, status } = query;
  checkOptionalString(endpointId, 'endpointId');
  checkOptionalString(eventId, 'eventId');
  checkOptionalString(status, 'status');
  const q = keysetQuery('deliveries', { endpointId, eventId, status }, query);
  return {
    q,
    filters: [
      ...eq('endpoint_id', endpointId),
      ...eq('event_id', eventId),
      ...eq('status', status),
    ],
  };
}
