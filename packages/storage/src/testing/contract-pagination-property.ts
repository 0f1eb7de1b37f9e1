import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { StorageAdapter } from '../storage-adapter.ts';
import type { ContractContext } from './contract-helpers.ts';
import { runWrite } from './contract-helpers.ts';

/** What happens between two pages. */
type Between =
  | { readonly op: 'insert'; readonly count: number }
  | { readonly op: 'update'; readonly pick: number }
  | { readonly op: 'delete'; readonly pick: number };

const between: fc.Arbitrary<Between> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('update' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
);

/**
 * Keyset pagination under concurrent writes, as a law: whatever is inserted, updated or deleted
 * between pages, a walk never returns a row twice, returns rows in creation order, and misses no
 * row that existed when the walk started and was not deleted during it.
 */
export function describePaginationProperty(ctx: ContractContext, numRuns: number): void {
  it('pages have no duplicates and no gaps under random writes between pages (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.array(between, { maxLength: 12 }),
        async (initial, pageSize, order, writes) => {
          const s: StorageAdapter = await ctx.factory();
          await s.open();
          try {
            let next = 0;
            const created: string[] = [];
            const revisions = new Map<string, number>();
            const insert = async (count: number) => {
              const ids = Array.from(
                { length: count },
                () => `run_${String(next++).padStart(3, '0')}`,
              );
              if (ids.length > 0) await s.commit({ runs: ids.map((id) => runWrite(id, 0)) });
              for (const id of ids) revisions.set(id, 1);
              created.push(...ids);
            };
            await insert(initial);
            const atStart = new Set(revisions.keys());
            const deleted = new Set<string>();
            const seen: string[] = [];
            let token: string | undefined;
            let step = 0;
            // Every page but the last is full and new rows are bounded, so a correct walk ends
            // within this many pages; a cursor that does not advance must fail, not hang.
            const maxPages = initial + writes.length * 3 + 2;
            for (let pages = 0; ; pages++) {
              expect(pages, 'pagination did not end').toBeLessThanOrEqual(maxPages);
              const page = await s.listRuns({ order, pageSize, pageToken: token });
              seen.push(...page.items.map((r) => r.id));
              token = page.nextPageToken;
              if (token === undefined) break;
              // Each write happens once, so the walk has a finite number of rows to reach.
              const w = writes[step++];
              const live = [...revisions.keys()];
              if (w === undefined || live.length === 0) continue;
              if (w.op === 'insert') await insert(w.count);
              else {
                const id = live[w.pick % live.length] as string;
                const revision = revisions.get(id) ?? 0;
                if (w.op === 'update') {
                  await s.commit({ runs: [runWrite(id, revision, { status: 'PROCESSING' })] });
                  revisions.set(id, revision + 1);
                } else {
                  await s.commit({ deleteRuns: [id] });
                  revisions.delete(id);
                  deleted.add(id);
                }
              }
            }
            expect(new Set(seen).size, 'no duplicates').toBe(seen.length);
            const rank = new Map(created.map((id, i) => [id, i]));
            const ranks = seen.map((id) => rank.get(id) ?? -1);
            const sorted = [...ranks].sort((a, b) => (order === 'asc' ? a - b : b - a));
            expect(ranks, 'creation order').toEqual(sorted);
            for (const id of atStart) {
              if (!deleted.has(id)) expect(seen, `missed ${id}`).toContain(id);
            }
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns },
    );
  });
}
