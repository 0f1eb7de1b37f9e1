/**
 * The routing data the planner needs (endpoints' global `enabledEvents`, subscriptions), loaded
 * from storage and cached per storage adapter. The webhook services invalidate the cache after
 * every write, so a state change committed after a subscription was created sees it.
 */
import type { StorageAdapter, StoredDocument } from '@docflow/storage';
import type { SubscriptionResourceType } from '../events/event-types.ts';

/** What routing needs of an endpoint. */
export interface WebhookEndpointTarget {
  readonly id: string;
  /** Global event types the endpoint receives for every resource. */
  readonly enabledEvents: readonly string[];
}

/** What routing needs of a subscription. */
export interface WebhookSubscriptionTarget {
  readonly id: string;
  readonly webhookEndpointId: string;
  readonly resourceType: SubscriptionResourceType;
  readonly resourceId: string;
  readonly enabledEvents: readonly string[];
}

/** Every endpoint and subscription, as routing sees them. */
export interface DeliveryTargets {
  readonly endpoints: readonly WebhookEndpointTarget[];
  readonly subscriptions: readonly WebhookSubscriptionTarget[];
}

interface CacheEntry {
  generation: number;
  loading?: Promise<DeliveryTargets> | undefined;
}

const cache = new WeakMap<StorageAdapter, CacheEntry>();

function entryFor(storage: StorageAdapter): CacheEntry {
  let entry = cache.get(storage);
  if (entry === undefined) {
    entry = { generation: 0 };
    cache.set(storage, entry);
  }
  return entry;
}

/** Forgets the cached targets of `storage`; the webhook services call it after each write. */
export function invalidateDeliveryTargets(storage: StorageAdapter): void {
  const entry = entryFor(storage);
  entry.generation++;
  entry.loading = undefined;
}

async function listAll(
  storage: StorageAdapter,
  collection: 'webhookEndpoints' | 'webhookSubscriptions',
): Promise<StoredDocument[]> {
  const out: StoredDocument[] = [];
  let pageToken: string | undefined;
  do {
    const page = await storage.listDocuments(collection, {
      order: 'asc',
      pageSize: 1000,
      ...(pageToken === undefined ? {} : { pageToken }),
    });
    out.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

async function load(storage: StorageAdapter): Promise<DeliveryTargets> {
  const [endpointDocs, subscriptionDocs] = await Promise.all([
    listAll(storage, 'webhookEndpoints'),
    listAll(storage, 'webhookSubscriptions'),
  ]);
  return {
    endpoints: endpointDocs.map((doc) => ({
      id: doc.id,
      enabledEvents: strings(doc.data.enabledEvents),
    })),
    subscriptions: subscriptionDocs.map((doc) => ({
      id: doc.id,
      webhookEndpointId: String(doc.data.webhookEndpointId),
      resourceType: doc.data.resourceType as SubscriptionResourceType,
      resourceId: String(doc.data.resourceId),
      enabledEvents: strings(doc.data.enabledEvents),
    })),
  };
}

/**
 * Every endpoint and subscription of `storage`, from a cache that the webhook services
 * invalidate on write. A load racing with a write is not cached, so a stale answer never
 * outlives the write that made it stale.
 */
export function loadDeliveryTargets(storage: StorageAdapter): Promise<DeliveryTargets> {
  const entry = entryFor(storage);
  if (entry.loading !== undefined) return entry.loading;
  const generation = entry.generation;
  const loading = load(storage);
  entry.loading = loading;
  loading.catch(() => {
    if (entry.loading === loading) entry.loading = undefined;
  });
  void loading.then(() => {
    if (entry.generation !== generation && entry.loading === loading) entry.loading = undefined;
  }, noop);
  return loading;
}

function noop(): void {}
