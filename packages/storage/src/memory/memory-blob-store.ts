import { checkString, invalid } from '../internal/validate.ts';
import type { AbortableOptions, BlobStore } from '../storage-adapter.ts';

/** Validates blob arguments shared by every blob store. */
export function checkBlobPut(key: string, bytes: Uint8Array): void {
  checkString(key, 'key');
  if (!(bytes instanceof Uint8Array)) invalid('bytes', 'must be a Uint8Array');
}

/**
 * A {@link BlobStore} in memory. Bytes are copied in and out so that neither side can change
 * the other's buffer. `assertOpen` ties its lifetime to the owning adapter.
 */
export function memoryBlobStore(assertOpen: (options?: AbortableOptions) => void): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(key, bytes, options) {
      assertOpen(options);
      checkBlobPut(key, bytes);
      blobs.set(key, new Uint8Array(bytes));
    },
    async get(key, options) {
      assertOpen(options);
      checkString(key, 'key');
      const bytes = blobs.get(key);
      return bytes === undefined ? undefined : new Uint8Array(bytes);
    },
    async delete(key, options) {
      assertOpen(options);
      checkString(key, 'key');
      blobs.delete(key);
    },
    async keys(prefix, options) {
      assertOpen(options);
      checkString(prefix, 'prefix');
      return [...blobs.keys()].filter((key) => key.startsWith(prefix));
    },
  };
}
