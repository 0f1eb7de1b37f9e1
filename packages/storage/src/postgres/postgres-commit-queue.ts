import { StorageError } from '../errors.ts';
import { revisionsByKey } from '../internal/revisions-by-key.ts';
import {
  duplicateKey,
  leaseHolder,
  leaseLost,
  revisionConflict,
} from '../internal/storage-errors.ts';
import type { CommitResult } from '../storage-adapter.ts';
import type { BatchPart, CommitWakeUps, PlannedCommit } from './postgres-commit.ts';
import { batchQuery, mergeWakeUps } from './postgres-commit.ts';
import {
  CHECK_FAILED,
  IN_FAILED_TRANSACTION,
  isServerError,
  isTransient,
  type ServerError,
  toStorageError,
} from './postgres-errors.ts';
import type {
  PostgresClient,
  PostgresPool,
  PostgresQuery,
  PostgresResult,
} from './postgres-pool.ts';
import { queryConfig, sendCorked } from './postgres-pool.ts';
import type { PostgresStatements } from './postgres-statements.ts';

/** What the queue did since it was made (for operations, benchmarks and tests). */
export interface CommitQueueStats {
  /** Commits that resolved. */
  readonly commits: number;
  /** Transactions sent, replays included. */
  readonly transactions: number;
  /** Commits whose run writes went in a statement shared with other commits. */
  readonly batchedCommits: number;
  /** Transactions sent again after one of their commits failed a check (or a deadlock). */
  readonly replays: number;
}

interface PendingCommit {
  readonly plan: PlannedCommit;
  readonly resolve: (result: CommitResult) => void;
  readonly reject: (error: unknown) => void;
}

/** How one transaction of commits ended. */
type Outcome =
  | {
      readonly kind: 'committed';
      readonly results: readonly CommitResult[];
      /** How many of the commits had their run writes batched. */
      readonly batched: number;
    }
  /**
   * A statement failed: the transaction rolled back; `commit` is the failed one's index (-1:
   * COMMIT itself failed, which no one commit explains).
   */
  | {
      readonly kind: 'failed';
      readonly commit: number;
      readonly query: number;
      /** The failed statement carried a batch of commits (see `sendStatements`). */
      readonly batched: boolean;
      readonly error: ServerError;
    }
  /** The connection failed: whether COMMIT happened is unknown. */
  | { readonly kind: 'unknown'; readonly error: unknown };

/** Deadlocks and serialization failures are retried this many times before they are reported. */
const TRANSIENT_RETRIES = 5;

/** Options of {@link PostgresCommitQueue}. */
export interface CommitQueueOptions {
  readonly pool: PostgresPool;
  readonly statements: PostgresStatements;
  /**
   * Transactions under way at once. Commits that share a row never overtake each other, so every
   * row sees its writes in call order whatever the value.
   */
  readonly maxTransactions: number;
  /** The most commits one transaction carries. */
  readonly maxCommitsPerTransaction: number;
  /** The `pg_notify` to send after a transaction that made work or deliveries claimable. */
  readonly notification: (wakeUps: CommitWakeUps) => PostgresQuery | undefined;
  /**
   * The pool's connections run with {@link SESSION_PLANNER_SETTINGS} (the adapter's own pool): a
   * commit transaction begins with a plain BEGIN, and one of a single statement, a batch
   * included, goes alone. Otherwise each begins with {@link BEGIN_COMMIT}.
   */
  readonly sessionSettings: boolean;
}

/**
 * Group commit over PostgreSQL. Commits made in one turn of the caller's code, and those made
 * while the previous transaction is under way, go in one transaction, sent as one pipeline
 * (BEGIN, every commit's statements, COMMIT, then the wake-up notification): one round trip and
 * one WAL flush for all of them. A commit whose check fails (revision, lease, key) aborts the
 * transaction; the commits before it are then committed again without it, it is rejected with
 * its own error, and the ones after it go on. Each commit is therefore all-or-nothing and
 * sees the commits called before it, as if each had its own transaction.
 */
export class PostgresCommitQueue {
  readonly #o: CommitQueueOptions;
  #pending: PendingCommit[] = [];
  #inFlight = 0;
  /**
   * The groups of the transactions under way. Their rows' keys are looked at only when another
   * transaction may start while one is under way (a backlog of a transaction's worth of
   * commits), not for every commit: a map of the keys of every group sent cost the process
   * about 3 µs per step commit in the step benchmark, where one transaction is under way at a
   * time.
   */
  readonly #underWay = new Set<readonly PendingCommit[]>();
  #scheduled = false;
  readonly #idle = new Set<() => void>();
  #stats = { commits: 0, transactions: 0, batchedCommits: 0, replays: 0 };

  constructor(options: CommitQueueOptions) {
    this.#o = options;
  }

  /** Queues a planned commit; resolves once its transaction committed. */
  submit(plan: PlannedCommit): Promise<CommitResult> {
    return new Promise<CommitResult>((resolve, reject) => {
      this.#pending.push({ plan, resolve, reject });
      if (!this.#scheduled && this.#inFlight < this.#o.maxTransactions) {
        this.#scheduled = true;
        // The commits of this turn of the caller's code go together.
        queueMicrotask(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    });
  }

  /** Counts since the queue was made. */
  stats(): CommitQueueStats {
    return { ...this.#stats };
  }

  /** Resolves once nothing is pending or under way. */
  flush(): Promise<void> {
    if (this.#pending.length === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  /**
   * Sends the next group while fewer than `maxTransactions` are under way (a second one only
   * when at least `maxCommitsPerTransaction` commits wait): the pending commits from the first,
   * up to `maxCommitsPerTransaction`, that touch no row of a transaction under way. If the first
   * does, nothing goes until that transaction ends: commits keep their call order wherever they
   * share a row.
   */
  #pump(): void {
    while (this.#inFlight < this.#o.maxTransactions && this.#pending.length > 0) {
      // Another transaction goes while one is under way only when the commits waiting would
      // fill one: a transaction's own cost (its statement's plan run, its WAL flush) is most of
      // what a few step commits cost the server, so the waiting ones go together in the next.
      if (this.#inFlight > 0 && this.#pending.length < this.#o.maxCommitsPerTransaction) return;
      const busy = this.#busyKeys();
      let size = 0;
      while (
        size < this.#pending.length &&
        size < this.#o.maxCommitsPerTransaction &&
        !(
          busy !== undefined &&
          (this.#pending[size] as PendingCommit).plan.keys.some((k) => busy.has(k))
        )
      ) {
        size++;
      }
      if (size === 0) return;
      const group = this.#pending.splice(0, size);
      this.#underWay.add(group);
      this.#inFlight++;
      void this.#apply(group).finally(() => {
        this.#underWay.delete(group);
        this.#inFlight--;
        // The commits waiting go at the end of this turn, not now: the callers of the commits
        // that just resolved commit again a few awaits later (the engine starts a run's next
        // step), and those join them. Sent at once, they left the next callers' commits for
        // another transaction, and a group of clients in step split into two halves that took
        // turns for good (half the commits per transaction, the server's CPU per step doubled).
        if (!this.#scheduled) {
          this.#scheduled = true;
          setImmediate(() => {
            this.#scheduled = false;
            this.#pump();
          });
        }
        if (this.#pending.length === 0 && this.#inFlight === 0) {
          for (const resolve of this.#idle) resolve();
          this.#idle.clear();
        }
      });
    }
  }

  /** The keys of the rows the transactions under way touch; undefined when none is. */
  #busyKeys(): Set<string> | undefined {
    if (this.#underWay.size === 0) return undefined;
    const keys = new Set<string>();
    for (const group of this.#underWay) {
      for (const p of group) for (const k of p.plan.keys) keys.add(k);
    }
    return keys;
  }

  /** Commits `group` in order, splitting it around commits that fail (see the class). */
  async #apply(group: readonly PendingCommit[]): Promise<void> {
    let rest = group;
    let retries = 0;
    let batching = true;
    while (rest.length > 0) {
      let outcome: Outcome;
      try {
        outcome = await this.#transact(
          rest.map((p) => p.plan),
          batching,
        );
      } catch (error) {
        // No connection: nothing was sent.
        const wrapped = toStorageError(error, 'PostgreSQL connection failed');
        for (const p of rest) p.reject(wrapped);
        return;
      }
      if (outcome.kind === 'committed') {
        this.#stats.commits += rest.length;
        this.#stats.batchedCommits += outcome.batched;
        rest.forEach((p, i) => {
          p.resolve(outcome.results[i] as CommitResult);
        });
        return;
      }
      this.#stats.replays++;
      if (outcome.kind === 'unknown') {
        const error = new StorageError(
          'DATABASE_ERROR',
          `PostgreSQL connection failed during a commit; whether it was applied is unknown: ${(outcome.error as Error).message}`,
          { retryable: false, details: { outcome: 'unknown' }, cause: outcome.error },
        );
        for (const p of rest) p.reject(error);
        return;
      }
      if (isTransient(outcome.error) && retries++ < TRANSIENT_RETRIES) continue;
      if (outcome.batched) {
        // A write of a batch missed: the same commits one by one tell whose it was.
        batching = false;
        continue;
      }
      if (outcome.commit < 0) {
        const wrapped = toStorageError(outcome.error);
        for (const p of rest) p.reject(wrapped);
        return;
      }
      // The commits before the failed one did nothing wrong: commit them without it. The failed
      // one is rejected (explained against the state it will have been rejected in), and the
      // ones after it go on.
      if (outcome.commit > 0) await this.#apply(rest.slice(0, outcome.commit));
      const failed = rest[outcome.commit] as PendingCommit;
      failed.reject(await this.#explain(failed.plan, outcome.query, outcome.error));
      rest = rest.slice(outcome.commit + 1);
      retries = 0;
      batching = true;
    }
  }

  /** Sends the commits as one pipelined transaction on a pooled connection. */
  async #transact(plans: readonly PlannedCommit[], batching: boolean): Promise<Outcome> {
    const client = await this.#o.pool.connect();
    let broken: unknown;
    this.#stats.transactions++;
    try {
      const outcome = await transactOn(
        client,
        plans,
        this.#o.notification(mergeWakeUps(plans)),
        batching ? this.#o.statements : undefined,
        this.#o.sessionSettings,
      );
      if (outcome.kind === 'unknown') broken = outcome.error;
      return outcome;
    } finally {
      client.release(broken instanceof Error ? broken : broken !== undefined);
    }
  }

  /** The StorageError for a failed statement, with the state it failed against. */
  async #explain(plan: PlannedCommit, query: number, error: ServerError): Promise<unknown> {
    const role = plan.roles[query];
    const s = this.#o.statements;
    try {
      if (error.code === CHECK_FAILED && role?.kind === 'run') {
        const row = await this.#row(s.runRevision, [role.id]);
        return revisionConflict(`runs/${role.id}`, role.expectedRevision, row?.revision as number);
      }
      if (error.code === CHECK_FAILED && role?.kind === 'document') {
        const row = await this.#row(s.docRevision, [role.collection, role.id]);
        return revisionConflict(
          `${role.collection}/${role.id}`,
          role.expectedRevision,
          row?.revision as number | undefined,
        );
      }
      if (error.code === CHECK_FAILED && role?.kind === 'fence') {
        const f = role.fence;
        if ('workId' in f) {
          const row = await this.#row(s.workLease, [f.workId]);
          const holder =
            row === undefined || row.lease_owner === null
              ? undefined
              : { leaseOwner: row.lease_owner as string, attempts: row.attempts as number };
          return leaseLost(`work/${f.workId}`, f.owner, leaseHolder(holder));
        }
        const row = await this.#row(s.deliveryGet, [f.deliveryId]);
        return leaseLost(
          `deliveries/${f.deliveryId}`,
          f.owner,
          (row?.lease_owner as string | null | undefined) ?? undefined,
        );
      }
      if (error.code === '23505' && role?.kind === 'document' && role.key !== undefined) {
        const key = role.key;
        const earlier = plan.roles
          .slice(0, query)
          .findLast(
            (r) => r?.kind === 'document' && r.collection === role.collection && r.key === key,
          );
        const owner =
          earlier?.kind === 'document'
            ? earlier.id
            : ((await this.#row(s.docIdByKey, [role.collection, key]))?.id as string | undefined);
        return duplicateKey(role.collection, key, role.id, owner ?? '(another document)');
      }
    } catch {
      // Explaining needs the database; the error itself is what matters.
    }
    return toStorageError(error);
  }

  async #row(text: string, values: readonly unknown[]) {
    const client = await this.#o.pool.connect();
    try {
      return (await client.query(queryConfig(text, values))).rows[0];
    } finally {
      client.release();
    }
  }
}

/** A statement of a transaction: which commit (the first of a batch) and which of its queries. */
interface Statement {
  readonly commit: number;
  /** For a batch statement, the commits it carries. */
  readonly commits: number;
  /** The query of the commit, or -1 for a statement carrying a batch of commits. */
  readonly query: number;
  readonly sql: PostgresQuery;
}

/** A statement sent, with its answer to come. */
interface Sent extends Statement {
  readonly answer: Promise<PostgresResult>;
}

/**
 * The statements of `plans` in order. With `statements`, consecutive commits that write runs and
 * queue items only, none the same as another's, share one statement (see `batchQuery`).
 */
function statementsOf(
  plans: readonly PlannedCommit[],
  statements: PostgresStatements | undefined,
): Statement[] {
  const list: Statement[] = [];
  for (let c = 0; c < plans.length; ) {
    const plan = plans[c] as PlannedCommit;
    if (statements !== undefined && plan.batchable !== undefined) {
      const runs = new Set<string>();
      const work = new Set<string>();
      const parts: BatchPart[] = [];
      let end = c;
      for (; end < plans.length; end++) {
        const b = (plans[end] as PlannedCommit).batchable;
        if (b === undefined || b.runIds.some((id) => runs.has(id))) break;
        if (b.workIds.some((id) => work.has(id))) break;
        for (const id of b.runIds) runs.add(id);
        for (const id of b.workIds) work.add(id);
        parts.push(b);
      }
      list.push({ commit: c, commits: end - c, query: -1, sql: batchQuery(parts, statements) });
      c = end;
      continue;
    }
    plan.queries.forEach((sql, query) => {
      list.push({ commit: c, commits: 1, query, sql });
    });
    c++;
  }
  return list;
}

/**
 * The planner settings a commit transaction begins with (and a list's page is read under). Its
 * statements find every row they touch by key; the settings say so for the transaction's plans,
 * which a prepared statement keeps (a generic plan after five executions, until the table's
 * statistics change). Planned from the table's size at that moment, the batch statement's joins
 * read a small `runs` or `work` table whole (a hash join over a sequential scan): a plan made in
 * a new schema's first seconds then read the whole table in every step commit while it grew, for
 * as long as a minute (until autovacuum's next analyze), and the queue table, where every step
 * leaves a dead row until then, longer still (step benchmark: 345 rows of `runs` read per step;
 * the batch statement's buffers per step 233 → 55 and its time 338 → 192 µs with these settings).
 */
export const PLANS_ON_KEYS =
  'SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off';

/**
 * Prepared statements of the transaction run on their generic plan from the first execution
 * (with {@link PLANS_ON_KEYS}, one on keys), never planned for their parameters. The server
 * picks a custom plan, planned at each execution, when it estimates one cheaper than the generic
 * plan, which it did for the batch statement of groups of a few commits (an empty array lets a
 * custom plan leave out a part): planning was then a third of the server's CPU in commits of 4
 * step commits, and server µs per step commit went 309 → 196 (groups of 4) and 1,040 → 490
 * (commits one at a time) with this setting (decision 0043).
 */
export const GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan';

/** How a commit transaction begins (see {@link GENERIC_PLANS} and {@link PLANS_ON_KEYS}). */
export const BEGIN_COMMIT = `BEGIN; ${GENERIC_PLANS}; ${PLANS_ON_KEYS}`;

/**
 * The same settings for a whole session, as the adapter's own connections run them from the
 * start (`createOwnPool`), so that a commit of one statement needs no BEGIN, SET LOCAL and COMMIT
 * around it. Those cost the server two more statements to parse and answer per transaction, and
 * the process two more answers to wait for and read: a step commit's transaction is now one
 * statement, one answer (the notification aside). Every statement of the adapter finds its rows
 * by key or by an index, but a few read a table whole, having none to use (a page by update time
 * without a filter, a run's deletion reading the queue): the settings make such a plan cost more
 * than `jit_above_cost`, and the server compiled it with LLVM at every execution (300 ms a page
 * of runs by update time): JIT is off too, which no statement of the adapter is long enough to
 * want. A pool you pass keeps {@link BEGIN_COMMIT}: its sessions are yours.
 */
export const SESSION_PLANNER_SETTINGS =
  `${GENERIC_PLANS}; ${PLANS_ON_KEYS}; SET jit = off`.replaceAll('SET LOCAL', 'SET');

const settle = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> =>
  promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );

/**
 * Sends BEGIN, the statements of every plan, COMMIT and the notification without waiting in
 * between (node-postgres pipelines them on a client in pipeline mode, and queues them otherwise),
 * then reads every answer. A group that is one statement is sent without BEGIN and COMMIT (a
 * statement on its own is a transaction), except a batch statement on a session without the
 * planner settings, which goes in a transaction begun by {@link BEGIN_COMMIT}. `statements`:
 * batch commits with them (see `statementsOf`); `sessionSettings`: see `CommitQueueOptions`.
 */
async function transactOn(
  client: PostgresClient,
  plans: readonly PlannedCommit[],
  notification: PostgresQuery | undefined,
  statements: PostgresStatements | undefined,
  sessionSettings: boolean,
): Promise<Outcome> {
  const list = statementsOf(plans, statements);
  const alone = list.length === 1 && (sessionSettings || (list[0] as Statement).query >= 0);
  const { begin, sent, commit, notify } = sendCorked(client, () => ({
    begin: alone ? undefined : client.query(queryConfig(sessionSettings ? 'BEGIN' : BEGIN_COMMIT)),
    sent: list.map((s): Sent => ({ ...s, answer: client.query(s.sql) })),
    commit: alone ? undefined : client.query(queryConfig('COMMIT')),
    notify: notification === undefined ? undefined : client.query(notification),
  }));
  const [began, answers, committed, notified] = await Promise.all([
    begin && settle(begin),
    Promise.allSettled(sent.map((s) => s.answer)),
    commit && settle(commit),
    notify && settle(notify),
  ]);
  if (began !== undefined && began.status !== 'fulfilled') {
    // Without BEGIN the statements behind it ran one by one: nothing says what was applied.
    return { kind: 'unknown', error: began.reason };
  }
  const connectionError = [...answers, committed, notified].find(
    (s): s is PromiseRejectedResult => s?.status === 'rejected' && !isServerError(s.reason),
  );
  if (connectionError !== undefined) return { kind: 'unknown', error: connectionError.reason };
  const documentRevisions = plans.map(revisionsByKey);
  for (let i = 0; i < sent.length; i++) {
    const { commit: c, query } = sent[i] as Sent;
    const answer = answers[i] as PromiseSettledResult<PostgresResult>;
    if (answer.status === 'rejected') {
      const error = answer.reason as ServerError;
      if (error.code === IN_FAILED_TRANSACTION) continue;
      return { kind: 'failed', commit: c, query, batched: query < 0, error };
    }
    const target = query < 0 ? undefined : (plans[c] as PlannedCommit).documentTargets[query];
    if (target !== undefined) {
      (documentRevisions[c] as Record<string, number>)[target] = answer.value.rows[0]
        ?.revision as number;
    }
  }
  if (
    committed !== undefined &&
    (committed.status !== 'fulfilled' || committed.value.command !== 'COMMIT')
  ) {
    const error =
      committed.status === 'rejected' ? committed.reason : new Error('COMMIT did not commit');
    if (isServerError(error)) {
      return { kind: 'failed', commit: -1, query: -1, batched: false, error };
    }
    return { kind: 'unknown', error };
  }
  const results = plans.map((plan, c) => ({
    runRevisions: plan.runRevisions,
    documentRevisions: documentRevisions[c] as Record<string, number>,
  }));
  let batched = 0;
  for (const x of sent) if (x.query < 0) batched += x.commits;
  return { kind: 'committed', results, batched };
}
