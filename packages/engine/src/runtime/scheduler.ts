import type { StorageAdapter, WorkItem } from '@docflow/storage';
import PQueue from 'p-queue';
import { type Clock, isoNow } from '../clock.ts';
import { STEP_TYPES, type StepType } from '../step-executor.ts';

/** Limits for one step type. */
export interface StepTypeLimits {
  /** At most this many steps of the type run at once. */
  readonly concurrency?: number;
  /** At most `count` starts per `intervalMs` (a slow provider throttles only its own steps). */
  readonly rateLimit?: { readonly count: number; readonly intervalMs: number };
}

/** Scheduling options of `createEngine`. */
export interface SchedulerOptions {
  /** Steps running at once across all types (default 16). */
  readonly concurrency?: number;
  readonly stepTypes?: Partial<Record<StepType, StepTypeLimits>>;
  /** How long a claim lasts without renewal; a dead worker's work returns after it (default 30 s). */
  readonly leaseMs?: number;
  /**
   * How often to look for delayed work (retry backoff) when nothing wakes the scheduler (default
   * 100 ms). On a store shared by processes that tells of new work (PostgreSQL), the scheduler
   * does not poll: it sleeps until the store's next claimable time or a wake-up.
   */
  readonly pollIntervalMs?: number;
}

/**
 * What an executing item holds: a slot of the scheduler, and either a claim (a queue row with a
 * lease) or a reservation (no row: its step run's PROCESSING status is its record). Opaque to
 * everything but the scheduler and the work plan (`work-plan.ts`): the commit of the item's
 * outcome may hand its slot to its run's next step, removes its row if it has one, and releases
 * the slot once committed.
 */
export interface WorkTicket {
  readonly item: WorkItem;
  /** The item's queue kind (its lane). */
  readonly kind: string;
  /**
   * The item has a queue row leased to this engine (it was claimed, or it started on a reserved
   * slot of a store shared by processes), which its outcome's commit removes.
   */
  readonly queued: boolean;
  /** The item started on a slot this engine reserved (its state is the one this engine committed). */
  readonly reserved: boolean;
  /** True once a reservation took the slot over. */
  handedOff: boolean;
  /**
   * True once a renewal found the item's lease taken by another process (it expired first): this
   * engine's execution is stopped, and its outcome would not commit.
   */
  leaseLost: boolean;
  /** Gives the slot back (early: once the outcome is committed; else when execution ends). */
  release(): void;
}

/**
 * How long, in milliseconds, the engine may keep Node's event loop busy starting steps before it
 * lets the loop turn. Steps whose executors settle without I/O (no-op, formula and control work)
 * chain each other through promises alone: a commit resolves, the next step starts, its outcome
 * commits, and no timer, I/O callback or incoming request of the host would run until every run
 * in flight came to rest. Past this budget, reserved steps start in a `setImmediate` instead
 * (docs/decisions/0008-yielding-to-the-event-loop.md).
 */
export const TURN_BUDGET_MS = 5;

interface TypeLane {
  readonly limit: number;
  /** Rate-limited lanes always go through the queue (p-queue paces them). */
  readonly rateLimited: boolean;
  active: number;
  readonly queue: PQueue;
}

/**
 * Claims ready work from storage only when there is room to run it, so the storage queue's order
 * (priority, then enqueue time) decides what runs next: an urgent run waits at most for the steps
 * already executing, never behind a claimed backlog.
 */
export class Scheduler {
  readonly #storage: StorageAdapter;
  readonly #clock: Clock;
  readonly #owner: string;
  readonly #execute: (item: WorkItem, ticket: WorkTicket) => Promise<void>;
  readonly #onError: (error: unknown) => void;
  readonly #onDrained: (() => void) | undefined;
  readonly #onLeasesLost: ((items: readonly WorkItem[]) => void) | undefined;
  /**
   * The store is shared by processes (`StorageAdapter.sharedByProcesses`): every item this engine
   * executes holds a lease, reserved ones included, renewed while it runs, and its outcome commits
   * only while the lease is held (fencing); idle, the scheduler sleeps until the store's next
   * claimable time instead of polling.
   */
  readonly shared: boolean;
  readonly #concurrency: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #lanes = new Map<string, TypeLane>();
  readonly #inflight = new Map<string, WorkItem>();
  /** The tickets of the items in {@link #inflight} that are executing. */
  readonly #tickets = new Map<string, WorkTicket>();
  /** Reservations that took over an executing item's slot, by their lease. */
  readonly #takenOver = new WeakMap<object, WorkTicket>();
  #running = 0;
  #pumping = false;
  /** False once a claim found less than it asked for and nothing was enqueued since. */
  #maybeQueued = true;
  #generation = 0;
  /** The most urgent priority that may be waiting in the queue (a conservative hint). */
  #minQueuedPriority = 0;
  /** The most urgent priority of work known to wait for its `availableAt`. */
  #minDelayedPriority = Number.POSITIVE_INFINITY;
  #idlePolls = 0;
  #again = false;
  #wakeScheduled = false;
  #started = false;
  #poll: NodeJS.Timeout | undefined;
  /** Shared store: the timer of the next look (the store's next claimable time). */
  #nextLook: NodeJS.Timeout | undefined;
  #renew: NodeJS.Timeout | undefined;
  #unsubscribeClock: (() => void) | undefined;
  readonly #idle = new Set<() => void>();
  /** When the engine began starting steps in the event loop's current turn (undefined: not yet). */
  #turnStart: number | undefined;
  /** Reserved items waiting for the loop's next turn (see {@link TURN_BUDGET_MS}). */
  #deferred: WorkItem[] = [];

  constructor(options: {
    storage: StorageAdapter;
    clock: Clock;
    owner: string;
    /**
     * Executes an item holding `ticket`. `ticket.release()` gives the slot back early, once the
     * item's outcome is committed (it is given back when the returned promise settles otherwise).
     */
    execute: (item: WorkItem, ticket: WorkTicket) => Promise<void>;
    onError: (error: unknown) => void;
    /** Called whenever the last running item finishes. */
    onDrained?: () => void;
    /** Items whose leases another process took over (renewal found them gone): stop them. */
    onLeasesLost?: (items: readonly WorkItem[]) => void;
    scheduling?: SchedulerOptions;
  }) {
    this.#onDrained = options.onDrained;
    this.#onLeasesLost = options.onLeasesLost;
    this.shared = options.storage.sharedByProcesses === true;
    this.#storage = options.storage;
    this.#clock = options.clock;
    this.#owner = options.owner;
    this.#execute = options.execute;
    this.#onError = options.onError;
    const s = options.scheduling ?? {};
    this.#concurrency = s.concurrency ?? 16;
    this.#leaseMs = s.leaseMs ?? 30_000;
    this.#pollMs = s.pollIntervalMs ?? 100;
    for (const type of STEP_TYPES) {
      const limits = s.stepTypes?.[type];
      const limit = limits?.concurrency ?? Number.POSITIVE_INFINITY;
      const queue = new PQueue({
        concurrency: limit,
        ...(limits?.rateLimit
          ? { intervalCap: limits.rateLimit.count, interval: limits.rateLimit.intervalMs }
          : {}),
      });
      this.#lanes.set(`step:${type}`, {
        limit,
        rateLimited: limits?.rateLimit !== undefined,
        active: 0,
        queue,
      });
    }
  }

  /** The lease owner name of this scheduler. */
  get owner(): string {
    return this.#owner;
  }

  /** How long a claim holds its item before another may claim it (`scheduling.leaseMs`). */
  get leaseMs(): number {
    return this.#leaseMs;
  }

  /** Work items being executed now. */
  get running(): number {
    return this.#running;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (!this.#sleepsUntilClaimable()) {
      this.#poll = setInterval(() => this.#pollDelayed(), this.#pollMs);
      this.#poll.unref();
    }
    this.#renew = setInterval(() => void this.#renewLeases(), Math.max(10, this.#leaseMs / 3));
    this.#renew.unref();
    this.#unsubscribeClock = this.#clock.onAdvance?.(() => this.notifyEnqueued());
    this.notifyEnqueued();
  }

  /** Stops claiming; in-flight work is left to the caller to abort and release. */
  stop(): void {
    this.#started = false;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#nextLook) clearTimeout(this.#nextLook);
    if (this.#renew) clearInterval(this.#renew);
    this.#unsubscribeClock?.();
  }

  /** Ids of the claimed work items in flight, whose leases this engine holds. */
  inflightIds(): string[] {
    return [...this.#inflight.keys()];
  }

  /** Resolves once nothing is executing (used by stop). */
  whenIdle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  /**
   * Work was enqueued (or time moved, making delayed work due): claim soon. Without this the
   * scheduler does not query storage when capacity frees up, so an idle queue costs no queries.
   * `priorities` of newly queued claimable items keep the fast path from overtaking them.
   */
  notifyEnqueued(items?: readonly { priority: number; availableAt?: string | undefined }[]): void {
    this.#maybeQueued = true;
    this.#generation++;
    if (items === undefined) this.#minQueuedPriority = 0;
    else {
      const now = isoNow(this.#clock);
      for (const { priority, availableAt } of items) {
        if (availableAt !== undefined && availableAt > now) {
          this.#minDelayedPriority = Math.min(this.#minDelayedPriority, priority);
        } else this.#minQueuedPriority = Math.min(this.#minQueuedPriority, priority);
      }
    }
    this.wake();
  }

  /** Delayed work (retry backoff) may have become due: look for it. */
  #pollDelayed(): void {
    if (this.#minDelayedPriority === Number.POSITIVE_INFINITY && !this.#maybeQueued) {
      // Nothing delayed is known: a cheap claim now and then still finds work from elsewhere.
      if (++this.#idlePolls % 10 !== 0) return;
    }
    this.#lookAgain();
  }

  #lookAgain(): void {
    this.#minQueuedPriority = Math.min(this.#minQueuedPriority, this.#minDelayedPriority);
    this.#maybeQueued = true;
    this.#generation++;
    this.wake();
  }

  /** Whether this scheduler sleeps until the store's next claimable time instead of polling. */
  #sleepsUntilClaimable(): boolean {
    return this.shared && this.#storage.nextClaimableAt !== undefined;
  }

  /**
   * Shared store, nothing claimable found: sleep until the store's next claimable time (another
   * process's retry, a dead process's expiring lease), at most a lease's time (wake-ups are
   * hints: one sent by a process that died right after its commit is lost), at least the poll
   * interval when it is due already (a claim just found nothing).
   */
  async #planNextLook(): Promise<void> {
    let next: Awaited<ReturnType<NonNullable<StorageAdapter['nextClaimableAt']>>> | undefined;
    try {
      next = await this.#storage.nextClaimableAt?.({});
    } catch (error) {
      // Stopping closes the store under a look in flight.
      if (this.#started) throw error;
    }
    if (!this.#started) return;
    const at = next?.work === undefined ? undefined : Date.parse(next.work);
    const wait =
      at === undefined
        ? this.#leaseMs
        : Math.min(this.#leaseMs, Math.max(this.#pollMs, at - this.#clock.now().getTime()));
    if (this.#nextLook) clearTimeout(this.#nextLook);
    this.#nextLook = setTimeout(() => {
      this.#nextLook = undefined;
      this.#lookAgain();
    }, wait);
    this.#nextLook.unref();
  }

  /**
   * Reserves a slot for work the caller is about to create already leased (the fast path of a
   * step that follows another in-process), when there is room and nothing more urgent may wait
   * in the queue. `handoff`: the slot of the executing item whose outcome is being committed;
   * the first reservation that names it takes it over (its run's next step runs in it). Dispatch
   * with {@link runReserved} after the commit, or give the slot back with
   * {@link cancelReservation}.
   */
  reserve(
    kind: string,
    priority: number,
    handoff?: WorkTicket,
  ): { owner: string; leaseMs: number } | undefined {
    const takeOver = handoff !== undefined && !handoff.handedOff;
    if (!this.#started || (!takeOver && this.#running >= this.#concurrency)) return undefined;
    if (this.#maybeQueued && this.#minQueuedPriority <= priority) return undefined;
    const lane = this.#lanes.get(kind);
    const laneFreeing = takeOver && handoff.kind === kind ? 1 : 0;
    if (lane && (lane.active - laneFreeing >= lane.limit || lane.rateLimited)) return undefined;
    if (lane) lane.active++;
    const lease = { owner: this.#owner, leaseMs: this.#leaseMs };
    if (takeOver) {
      handoff.handedOff = true;
      this.#takenOver.set(lease, handoff);
    } else this.#running++;
    return lease;
  }

  /** Gives back a reservation (`lease`: what {@link reserve} returned) whose commit failed. */
  cancelReservation(kind: string, lease: object): void {
    const ticket = this.#takenOver.get(lease);
    if (ticket) ticket.handedOff = false;
    else this.#running--;
    const lane = this.#lanes.get(kind);
    if (lane) lane.active--;
    this.wake();
  }

  /**
   * Executes a reserved item (created PROCESSING by a commit, with no queue row): now, or in the
   * event loop's next turn once this turn has spent {@link TURN_BUDGET_MS} starting steps.
   */
  runReserved(item: WorkItem): void {
    // On a shared store the item was enqueued leased to this engine by the commit that began it.
    if (this.shared) this.#inflight.set(item.id, item);
    if (this.#turnSpent()) {
      this.#deferred.push(item);
      return;
    }
    this.#dispatch(item, true);
  }

  /**
   * Whether this turn of the event loop has spent its budget. The first call of a turn notes the
   * time and schedules the turn's end: a `setImmediate`, which runs only once the loop has turned
   * (timers and I/O had their go), and starts the items deferred meanwhile.
   */
  #turnSpent(): boolean {
    const now = performance.now();
    if (this.#turnStart === undefined) {
      this.#turnStart = now;
      setImmediate(this.#endTurn);
      return false;
    }
    return now - this.#turnStart > TURN_BUDGET_MS;
  }

  readonly #endTurn = (): void => {
    this.#turnStart = undefined;
    const deferred = this.#deferred;
    this.#deferred = [];
    for (const item of deferred) this.runReserved(item);
  };

  /** Looks for claimable work soon, if any may be queued. */
  wake(): void {
    if (!this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    void this.#pump()
      .catch((error) => this.#onError(error))
      .finally(() => {
        this.#pumping = false;
      });
  }

  /**
   * A slot was freed: look for work at the end of the tick, so that steps finishing together
   * are refilled by one claim (one transaction) instead of one claim per freed slot.
   */
  #wakeSoon(): void {
    if (this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      this.wake();
    });
  }

  async #pump(): Promise<void> {
    do {
      this.#again = false;
      if (!this.#started) return;
      const free = this.#concurrency - this.#running;
      if (free <= 0 || !this.#maybeQueued) return;
      const generation = this.#generation;
      const saturated = [...this.#lanes].filter(([, lane]) => lane.active >= lane.limit);
      const kinds =
        saturated.length === 0
          ? undefined
          : [...this.#lanes].filter(([, lane]) => lane.active < lane.limit).map(([kind]) => kind);
      if (kinds && kinds.length === 0) return;
      const items = await this.#storage.claimWork({
        owner: this.#owner,
        limit: free,
        leaseMs: this.#leaseMs,
        now: isoNow(this.#clock),
        ...(kinds ? { kinds } : {}),
      });
      for (const item of items) this.#dispatch(item);
      if (items.length === free) this.#again = true;
      else if (kinds === undefined && generation === this.#generation) {
        this.#maybeQueued = false;
        this.#minQueuedPriority = Number.POSITIVE_INFINITY;
        if (this.#started && this.#sleepsUntilClaimable()) await this.#planNextLook();
      }
    } while (this.#again);
  }

  #dispatch(item: WorkItem, reserved = false): void {
    const lane = this.#lanes.get(item.kind);
    if (!reserved) {
      this.#running++;
      if (lane) lane.active++;
    }
    // Claimed items hold leases, renewed while they run and released on stop (reserved ones too
    // on a shared store: see runReserved).
    const queued = !reserved || this.shared;
    if (!reserved) this.#inflight.set(item.id, item);
    let released = false;
    const ticket: WorkTicket = {
      item,
      kind: item.kind,
      queued,
      reserved,
      handedOff: false,
      leaseLost: false,
      release: () => {
        if (released) return;
        released = true;
        // A slot taken over stays occupied, by the item that took it.
        if (!ticket.handedOff) this.#running--;
        if (queued) {
          this.#inflight.delete(item.id);
          this.#tickets.delete(item.id);
        }
        if (lane) lane.active--;
        this.#wakeSoon();
        if (this.#running === 0) {
          for (const resolve of this.#idle) resolve();
          this.#idle.clear();
          this.#onDrained?.();
        }
      },
    };
    if (queued) this.#tickets.set(item.id, ticket);
    const run = async () => {
      try {
        await this.#execute(item, ticket);
      } catch (error) {
        this.#onError(error);
      } finally {
        ticket.release();
      }
    };
    // An unlimited lane has nothing to pace: p-queue's bookkeeping would only cost a microtask
    // and an event per step.
    if (lane && (lane.limit !== Number.POSITIVE_INFINITY || lane.rateLimited)) {
      void lane.queue.add(run, { priority: -item.priority });
    } else void run();
  }

  async #renewLeases(): Promise<void> {
    const ids = this.inflightIds();
    if (ids.length === 0) return;
    try {
      const held = new Set(
        await this.#storage.renewWork(ids, {
          owner: this.#owner,
          leaseMs: this.#leaseMs,
          now: isoNow(this.#clock),
        }),
      );
      const lost: WorkItem[] = [];
      for (const id of ids) {
        const item = this.#inflight.get(id);
        // An item that finished meanwhile (its row went with its outcome) is not lost.
        if (held.has(id) || item === undefined) continue;
        lost.push(item);
        const ticket = this.#tickets.get(id);
        if (ticket) ticket.leaseLost = true;
      }
      if (lost.length > 0) this.#onLeasesLost?.(lost);
    } catch (error) {
      this.#onError(error);
    }
  }
}
