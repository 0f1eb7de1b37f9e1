import { describe, expect, it } from 'vitest';
import { snapshotPatch } from '../snapshot-patch.ts';
import type {
  DeliveryQuery,
  DeliveryWrite,
  DocumentQuery,
  DocumentWrite,
  ListOptions,
  Page,
  RunQuery,
  RunWrite,
  StorageAdapter,
} from '../storage-adapter.ts';
import type { ContractContext } from './contract-helpers.ts';
import { at, delivery, docWrite, expectStorageError, runWrite } from './contract-helpers.ts';

const STATUSES = ['PENDING', 'PROCESSING', 'PROCESSED'] as const;

function runFixture(i: number): RunWrite {
  return runWrite(`run_${String(i).padStart(3, '0')}`, 0, {
    kind: i % 2 === 0 ? 'workflow_run' : 'extract_run',
    workflowId: i % 3 === 0 ? undefined : `wf_${i % 3}`,
    batchId: i % 4 === 0 ? 'batch_a' : undefined,
    status: STATUSES[i % 3] ?? 'PENDING',
    active: i % 3 !== 2,
  });
}

function docFixture(i: number): DocumentWrite {
  return docWrite(`doc_${String(i).padStart(3, '0')}`, {
    parentId: i % 3 === 0 ? undefined : `parent_${i % 3}`,
    secondaryId: i % 4 === 0 ? 'res_a' : undefined,
    name: i % 5 === 0 ? undefined : i % 2 === 0 ? `Invoice ${i}` : `receipt ${i}`,
  });
}

function deliveryFixture(i: number): DeliveryWrite {
  return delivery(`del_${String(i).padStart(3, '0')}`, {
    endpointId: `endpoint_${i % 3}`,
    eventId: `event_${i % 4}`,
    status: i % 5 === 0 ? 'succeeded' : 'pending',
  });
}

/** One listable resource, described for the generic pagination tests. */
interface Listable<W, Q extends ListOptions> {
  readonly name: string;
  readonly fixture: (i: number) => W;
  readonly idOf: (w: W) => string;
  readonly write: (s: StorageAdapter, items: readonly W[]) => Promise<unknown>;
  /** Writes an existing row again (a new revision), at `when` (RFC 3339) if given. */
  readonly rewrite: (s: StorageAdapter, item: W, when?: string) => Promise<unknown>;
  readonly list: (s: StorageAdapter, query: Q) => Promise<Page<{ readonly id: string }>>;
  /** Filters and the reference predicate they must agree with. */
  readonly filters: readonly [Q, (w: W) => boolean][];
  /** Another filter, to make a token mismatch. */
  readonly otherFilter: Q;
}

const listables = [
  {
    name: 'runs',
    fixture: runFixture,
    idOf: (w) => w.id,
    write: (s, items) => s.commit({ runs: items }),
    rewrite: async (s, w, when) => {
      const current = await s.getRun(w.id);
      // With a patch, an event and no column changed: an adapter may store only the patch
      // (SQLite does from the second such write of an active run), and the run's update time
      // must still be the one lists sort by.
      await s.commit({
        runs: [
          {
            ...w,
            expectedRevision: current?.revision ?? 0,
            patch: snapshotPatch(current?.snapshot ?? w.snapshot, w.snapshot),
            events: [{ type: 'touched', data: {} }],
            at: when,
          },
        ],
      });
    },
    list: (s, q) => s.listRuns(q),
    filters: [
      [{ kind: 'extract_run' }, (w) => w.kind === 'extract_run'],
      [{ workflowId: 'wf_1' }, (w) => w.workflowId === 'wf_1'],
      [{ batchId: 'batch_a' }, (w) => w.batchId === 'batch_a'],
      [{ status: 'PROCESSING' }, (w) => w.status === 'PROCESSING'],
      [{ active: true }, (w) => w.active],
      [{ active: false }, (w) => !w.active],
      [
        { workflowId: 'wf_2', active: false, kind: 'workflow_run' },
        (w) => w.workflowId === 'wf_2' && !w.active && w.kind === 'workflow_run',
      ],
      [
        { batchId: 'batch_a', status: 'PENDING' },
        (w) => w.batchId === 'batch_a' && w.status === 'PENDING',
      ],
      [{ workflowId: 'nope' }, () => false],
    ],
    otherFilter: { status: 'PENDING' },
  } satisfies Listable<RunWrite, RunQuery>,
  {
    name: 'documents',
    fixture: docFixture,
    idOf: (w) => w.id,
    write: (s, items) => s.commit({ documents: items }),
    rewrite: (s, w, when) => s.commit({ documents: [{ ...w, at: when }] }),
    list: (s, q) => s.listDocuments('workflows', q),
    filters: [
      [{ parentId: 'parent_1' }, (w) => w.parentId === 'parent_1'],
      [{ secondaryId: 'res_a' }, (w) => w.secondaryId === 'res_a'],
      [{ nameContains: 'INVOICE' }, (w) => w.name?.toLowerCase().includes('invoice') === true],
      [{ nameContains: 'eipt 1' }, (w) => w.name?.toLowerCase().includes('eipt 1') === true],
      [
        { parentId: 'parent_2', nameContains: 'receipt' },
        (w) => w.parentId === 'parent_2' && w.name?.startsWith('receipt') === true,
      ],
      [
        { parentId: 'parent_1', secondaryId: 'res_a' },
        (w) => w.parentId === 'parent_1' && w.secondaryId === 'res_a',
      ],
    ],
    otherFilter: { parentId: 'parent_2' },
  } satisfies Listable<DocumentWrite, DocumentQuery>,
  {
    name: 'deliveries',
    fixture: deliveryFixture,
    idOf: (w) => w.id,
    write: (s, items) => s.commit({ deliveries: items }),
    rewrite: (s, w, when) => s.commit({ deliveries: [{ ...w, at: when }] }),
    list: (s, q) => s.listDeliveries(q),
    filters: [
      [{ endpointId: 'endpoint_1' }, (w) => w.endpointId === 'endpoint_1'],
      [{ eventId: 'event_2' }, (w) => w.eventId === 'event_2'],
      [{ status: 'succeeded' }, (w) => w.status === 'succeeded'],
      [
        { endpointId: 'endpoint_0', status: 'pending' },
        (w) => w.endpointId === 'endpoint_0' && w.status === 'pending',
      ],
    ],
    otherFilter: { status: 'pending' },
  } satisfies Listable<DeliveryWrite, DeliveryQuery>,
] as const;

/** Follows `nextPageToken` to the end, optionally doing something between pages. */
async function walk<Q extends ListOptions>(
  list: (q: Q) => Promise<Page<{ readonly id: string }>>,
  query: Q,
  between?: (page: number) => Promise<void>,
): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const result = await list({ ...query, pageToken: token });
    expect(result.items.length).toBeLessThanOrEqual(query.pageSize ?? 10);
    ids.push(...result.items.map((x) => x.id));
    token = result.nextPageToken;
    if (token === undefined) return ids;
    expect(result.items.length, 'a page with a next page is full').toBe(query.pageSize ?? 10);
    await between?.(page);
  }
  throw new Error('pagination did not end');
}

function describeListable<W, Q extends ListOptions>(ctx: ContractContext, l: Listable<W, Q>): void {
  describe(`${l.name} pagination`, () => {
    const count = 23;
    const fixtures = Array.from({ length: count }, (_, i) => l.fixture(i));
    const ids = fixtures.map(l.idOf);
    const list = (q: Q) => l.list(ctx.storage(), q);

    it('defaults to 10 per page, newest first', async () => {
      await l.write(ctx.storage(), fixtures.slice(0, 12));
      const first = await list({} as Q);
      expect(first.items.map((x) => x.id)).toEqual(ids.slice(2, 12).reverse());
      expect(first.nextPageToken).toEqual(expect.any(String));
      const second = await list({ pageToken: first.nextPageToken } as Q);
      expect(second.items.map((x) => x.id)).toEqual(ids.slice(0, 2).reverse());
      expect(second.nextPageToken).toBeUndefined();
    });

    it('walks every row exactly once in both orders and any page size', async () => {
      // One commit per row, so that every row gets its own commit.
      for (const f of fixtures) await l.write(ctx.storage(), [f]);
      for (const pageSize of [1, 4, 10, 23, 24, 1000]) {
        expect(await walk(list, { order: 'asc', pageSize } as Q)).toEqual(ids);
        expect(await walk(list, { order: 'desc', pageSize } as Q)).toEqual([...ids].reverse());
      }
    });

    it('agrees with every filter, in both orders', async () => {
      await l.write(ctx.storage(), fixtures);
      for (const [filter, keep] of l.filters) {
        const expected = fixtures.filter(keep).map(l.idOf);
        expect(
          await walk(list, { ...filter, order: 'asc', pageSize: 3 }),
          JSON.stringify(filter),
        ).toEqual(expected);
        expect(
          await walk(list, { ...filter, order: 'desc', pageSize: 2 }),
          JSON.stringify(filter),
        ).toEqual([...expected].reverse());
      }
    });

    it('has no duplicates and no gaps while rows are inserted and updated between pages', async () => {
      const s = ctx.storage();
      await l.write(s, fixtures.slice(0, 15));
      let next = 15;
      const insert = async () => {
        await l.write(s, [l.fixture(next++)]);
        // Rewriting an already listed row must not move it into a later page.
        await l.rewrite(s, l.fixture(0));
      };
      const asc = await walk(list, { order: 'asc', pageSize: 4 } as Q, insert);
      expect(new Set(asc).size).toBe(asc.length);
      expect(asc.slice(0, 15)).toEqual(ids.slice(0, 15));
      // Rows inserted behind the cursor's direction show up at the end, in order.
      expect(asc.slice(15)).toEqual(
        Array.from({ length: next - 15 }, (_, i) => l.idOf(l.fixture(15 + i))),
      );
      const before = next;
      const desc = await walk(list, { order: 'desc', pageSize: 4 } as Q, insert);
      // Newest first: rows inserted after the first page never appear; no original is missed.
      expect(desc).toEqual(
        Array.from({ length: before }, (_, i) => l.idOf(l.fixture(before - 1 - i))),
      );
    });

    it('sorts by updatedAt in both orders, ties in creation order, paging on (updatedAt, seq)', async () => {
      const s = ctx.storage();
      await l.write(
        s,
        fixtures.map((f) => ({ ...f, at: at(0) })),
      );
      // Rewritten in this order; 12 at the same instant as 0, after it in creation order; 3
      // twice, the second time last of all.
      const touched: [number, number][] = [
        [3, 10],
        [0, 11],
        [12, 11],
        [17, 12],
        [9, 13],
        [3, 14],
      ];
      for (const [i, t] of touched) await l.rewrite(s, fixtures[i] as W, at(t));
      const when = new Map(touched.map(([i, t]) => [i, at(t)]));
      const expected = (keep: (w: W) => boolean) =>
        fixtures
          .map((w, i) => ({ w, i, t: when.get(i) ?? at(0) }))
          .filter(({ w }) => keep(w))
          .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.i - b.i))
          .map(({ i }) => ids[i] as string);
      const all = expected(() => true);
      expect(all.slice(-5)).toEqual([0, 12, 17, 9, 3].map((i) => ids[i]));
      for (const pageSize of [1, 3, 23, 24]) {
        expect(await walk(list, { sortBy: 'updatedAt', order: 'asc', pageSize } as Q)).toEqual(all);
        expect(await walk(list, { sortBy: 'updatedAt', order: 'desc', pageSize } as Q)).toEqual(
          [...all].reverse(),
        );
      }
      // Newest first is the default order; creation order stays the default key.
      expect(
        (await list({ sortBy: 'updatedAt', pageSize: 2 } as Q)).items.map((x) => x.id),
      ).toEqual([ids[3], ids[9]]);
      expect(await walk(list, { order: 'asc', pageSize: 7 } as Q)).toEqual(ids);
      for (const [filter, keep] of l.filters) {
        expect(
          await walk(list, { ...filter, sortBy: 'updatedAt', order: 'desc', pageSize: 2 }),
          JSON.stringify(filter),
        ).toEqual(expected(keep).reverse());
      }
      // A token belongs to its key: one of creation order does not continue a list by update.
      const byCreation = await list({ order: 'asc', pageSize: 2 } as Q);
      await expectStorageError(
        list({
          sortBy: 'updatedAt',
          order: 'asc',
          pageSize: 2,
          pageToken: byCreation.nextPageToken,
        } as Q),
        'INVALID_PAGE_TOKEN',
      );
      const byUpdate = await list({ sortBy: 'updatedAt', order: 'asc', pageSize: 2 } as Q);
      await expectStorageError(
        list({ order: 'asc', pageSize: 2, pageToken: byUpdate.nextPageToken } as Q),
        'INVALID_PAGE_TOKEN',
      );
    });

    it('refuses a token of another filter, another order, or garbage with INVALID_PAGE_TOKEN', async () => {
      await l.write(ctx.storage(), fixtures);
      const page = await list({ order: 'asc', pageSize: 2 } as Q);
      const token = page.nextPageToken;
      expect(token).toEqual(expect.any(String));
      await expectStorageError(
        list({ ...l.otherFilter, order: 'asc', pageSize: 2, pageToken: token }),
        'INVALID_PAGE_TOKEN',
      );
      await expectStorageError(
        list({ order: 'desc', pageSize: 2, pageToken: token } as Q),
        'INVALID_PAGE_TOKEN',
      );
      await expectStorageError(list({ pageToken: 'not-a-token' } as Q), 'INVALID_PAGE_TOKEN');
      await expectStorageError(
        list({ pageToken: Buffer.from('{"v":1}').toString('base64url') } as Q),
        'INVALID_PAGE_TOKEN',
      );
      // The page size may change between pages.
      const rest = await list({ order: 'asc', pageSize: 50, pageToken: token } as Q);
      expect(rest.items.map((x) => x.id)).toEqual(ids.slice(2));
    });

    it('rejects a page size outside 1..1000 or a bad order with INVALID_ARGUMENT', async () => {
      for (const pageSize of [0, -1, 1001, 1.5, Number.NaN]) {
        const error = await expectStorageError(list({ pageSize } as Q), 'INVALID_ARGUMENT');
        expect(error.message).toContain('pageSize');
      }
      await expectStorageError(list({ order: 'up' } as unknown as Q), 'INVALID_ARGUMENT');
      const error = await expectStorageError(
        list({ sortBy: 'name' } as unknown as Q),
        'INVALID_ARGUMENT',
      );
      expect(error.message).toContain('sortBy');
    });
  });
}

/** Keyset pagination of every list method. */
export function describePagination(ctx: ContractContext): void {
  for (const l of listables) describeListable(ctx, l as unknown as Listable<unknown, ListOptions>);
}
