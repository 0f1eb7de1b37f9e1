export { isStorageError, StorageError, StorageErrorCode } from './errors.ts';
export type { MemoryStorageOptions } from './memory/memory-storage.ts';
export { memoryStorage } from './memory/memory-storage.ts';
export type { SnapshotPatchOp, SnapshotPath } from './snapshot-patch.ts';
export { applySnapshotPatch, snapshotPatch } from './snapshot-patch.ts';
export type {
  AbortableOptions,
  BlobStore,
  Changes,
  ClaimableTimes,
  ClaimOptions,
  ClaimWorkOptions,
  CollectionName,
  CommitResult,
  DeliveryAttempt,
  DeliveryQuery,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryWrite,
  DocumentQuery,
  DocumentWrite,
  Durability,
  JsonObject,
  JsonValue,
  LeaseFence,
  ListOptions,
  NextClaimableOptions,
  Page,
  RunEventInput,
  RunEventRecord,
  RunQuery,
  RunRecord,
  RunWrite,
  StorageAdapter,
  StorageWakeUp,
  StoredDocument,
  Unsubscribe,
  WorkItem,
  WorkItemInput,
} from './storage-adapter.ts';
export { COLLECTIONS } from './storage-adapter.ts';
export type { StorageClock } from './storage-clock.ts';
