import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isStorageError } from '../errors.ts';
import type { StorageAdapter } from '../storage-adapter.ts';
import type { ContractContext } from './contract-helpers.ts';
import { docWrite, runWrite } from './contract-helpers.ts';

/** One writer: reads the current revision, then writes with it (or with a stale one). */
interface WriterOp {
  readonly target: 'run' | 'doc';
  readonly index: number;
  readonly stale: boolean;
  /** Read-then-write cycles this writer performs. */
  readonly rounds: number;
}

const writerOp = fc.record({
  target: fc.constantFrom<'run' | 'doc'>('run', 'doc'),
  index: fc.integer({ min: 0, max: 2 }),
  stale: fc.boolean(),
  rounds: fc.integer({ min: 1, max: 4 }),
});

async function currentRevision(s: StorageAdapter, op: WriterOp): Promise<number> {
  const id = `${op.target}_${op.index}`;
  const current = op.target === 'run' ? await s.getRun(id) : await s.getDocument('workflows', id);
  return current?.revision ?? 0;
}

/**
 * The law of optimistic concurrency: whatever the interleaving of reads and writes, a revision
 * is granted once, granted revisions are 1..n without gaps, and nobody ever observes a revision
 * going down.
 */
export function describeRevisionProperty(ctx: ContractContext, numRuns: number): void {
  it('revisions only increase under random interleavings of writes (property)', async () => {
    let totalConflicts = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(writerOp, { minLength: 1, maxLength: 24 }),
        async (scheduler, ops) => {
          const s = await ctx.factory();
          await s.open();
          try {
            const granted = new Map<string, number[]>();
            const observed = new Map<string, number>();
            const observe = async (op: WriterOp) => {
              const key = `${op.target}_${op.index}`;
              const revision = await currentRevision(s, op);
              const before = observed.get(key) ?? 0;
              expect(revision, `${key} went from ${before} to ${revision}`).toBeGreaterThanOrEqual(
                before,
              );
              observed.set(key, Math.max(before, revision));
            };
            const writeOnce = async (op: WriterOp, n: number) => {
              const key = `${op.target}_${op.index}`;
              // Gates let the scheduler interleave reads and writes of all writers at random.
              await scheduler.schedule(Promise.resolve(), `read ${n}`);
              const read = await currentRevision(s, op);
              const expected = op.stale ? Math.max(0, read - 1) : read;
              await scheduler.schedule(Promise.resolve(), `write ${n}`);
              try {
                const result =
                  op.target === 'run'
                    ? await s.commit({
                        runs: [
                          runWrite(key, expected, { events: [{ type: 'write', data: { n } }] }),
                        ],
                      })
                    : await s.commit({
                        documents: [docWrite(key, { expectedRevision: expected, data: { n } })],
                      });
                const revision =
                  op.target === 'run'
                    ? result.runRevisions[key]
                    : result.documentRevisions[`workflows/${key}`];
                expect(revision).toBe(expected + 1);
                granted.set(key, [...(granted.get(key) ?? []), revision ?? -1]);
              } catch (error) {
                if (!isStorageError(error, 'REVISION_CONFLICT')) throw error;
                totalConflicts++;
              }
              await observe(op);
            };
            const writer = async (op: WriterOp, n: number) => {
              for (let round = 0; round < op.rounds; round++) await writeOnce(op, n);
            };
            await scheduler.waitFor(Promise.all(ops.map((op, n) => writer(op, n))));
            for (const [key, revisions] of granted) {
              const sorted = [...revisions].sort((a, b) => a - b);
              expect(sorted, `${key} granted revisions`).toEqual(sorted.map((_, i) => i + 1));
              const op: WriterOp = {
                target: key.startsWith('run') ? 'run' : 'doc',
                index: Number(key.slice(-1)),
                stale: false,
                rounds: 1,
              };
              expect(await currentRevision(s, op)).toBe(sorted.length);
              if (op.target === 'run') {
                const events = await s.listRunEvents(key);
                expect(events.map((e) => e.revision)).toEqual(sorted);
                expect(events.map((e) => e.seq)).toEqual(sorted);
              }
            }
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns },
    );
    // The interleavings must actually have produced stale writes, or the law was never tested.
    expect(totalConflicts).toBeGreaterThan(0);
  });
}
