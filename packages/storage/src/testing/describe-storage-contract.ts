import { afterEach, beforeEach, describe } from 'vitest';
import type { StorageAdapter } from '../storage-adapter.ts';
import { describeDocuments } from './contract-documents.ts';
import { describeFences } from './contract-fences.ts';
import type { ContractContext, StorageFactory } from './contract-helpers.ts';
import { describeLifecycle } from './contract-lifecycle.ts';
import { describePagination } from './contract-pagination.ts';
import { describePaginationProperty } from './contract-pagination-property.ts';
import { describeQueue } from './contract-queue.ts';
import { describeRevisionProperty } from './contract-revisions-property.ts';
import { describeRuns } from './contract-runs.ts';

/** Options of {@link describeStorageContract}. */
export interface StorageContractOptions {
  /** Runs of each property test (default 25); each run makes a fresh adapter. */
  readonly propertyRuns?: number | undefined;
}

/**
 * Registers the storage contract suite (vitest) for an adapter. `factory` must return a fresh,
 * unopened adapter with empty state on every call; the suite opens and closes it.
 *
 * @example
 * describeStorageContract('sqlite', () => sqliteStorage({ path: ':memory:' }));
 */
export function describeStorageContract(
  name: string,
  factory: StorageFactory,
  options: StorageContractOptions = {},
): void {
  describe(`storage contract: ${name}`, () => {
    let current: StorageAdapter | undefined;
    beforeEach(async () => {
      current = await factory();
      await current.open();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    const ctx: ContractContext = {
      factory,
      storage: () => {
        if (current === undefined) throw new Error('the contract suite has no open adapter');
        return current;
      },
    };
    describeLifecycle(ctx);
    describeDocuments(ctx);
    describeRuns(ctx);
    describeQueue(ctx);
    describeFences(ctx);
    describePagination(ctx);
    describeRevisionProperty(ctx, options.propertyRuns ?? 25);
    describePaginationProperty(ctx, options.propertyRuns ?? 25);
  });
}
