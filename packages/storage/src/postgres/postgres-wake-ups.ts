import { formatTime } from '../internal/time.ts';
import type { StorageWakeUp, Unsubscribe } from '../storage-adapter.ts';
import type { CommitWakeUps } from './postgres-commit.ts';
import { quoteIdentifier } from './postgres-migrations.ts';
import type { PostgresClient, PostgresNotification, PostgresPool } from './postgres-pool.ts';
import { queryConfig } from './postgres-pool.ts';

/** A notification's payload: who sent it, and what became claimable when. */
interface Payload {
  /** The sending adapter instance. */
  readonly i: string;
  /** Work: [earliest availability (epoch ms), most urgent priority]. */
  readonly w?: readonly [number, number];
  /** Deliveries: earliest next attempt (epoch ms). */
  readonly d?: number;
  /** Runs that settled (empty: too many to name). */
  readonly r?: readonly string[];
}

/** The most run ids a notification names (its payload must stay under 8,000 bytes). */
const MAX_RUN_IDS = 64;

/** The notification payload for what a transaction (or a release) made claimable or settled. */
export function wakeUpPayload(instance: string, wakeUps: CommitWakeUps): string | undefined {
  const { work, deliveries, runs } = wakeUps;
  if (work === undefined && deliveries === undefined && runs === undefined) return undefined;
  const payload: { i: string; w?: [number, number]; d?: number; r?: readonly string[] } = {
    i: instance,
  };
  if (work !== undefined) payload.w = [work.at, work.priority];
  if (deliveries !== undefined) payload.d = deliveries.at;
  if (runs !== undefined) {
    const short = runs.length <= MAX_RUN_IDS && runs.every((id) => id.length <= 100);
    payload.r = short ? runs : [];
  }
  return JSON.stringify(payload);
}

/** Reconnection delays after the listening connection is lost (then the last one repeats). */
const BACKOFF_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * LISTEN on the adapter's channel over one connection held from the pool while anyone is
 * subscribed. When the connection is lost it reconnects (backing off) and, once listening
 * again, tells every subscriber to look (a wake-up without `availableAt`), since notifications
 * sent meanwhile are lost.
 */
export class PostgresWakeUps {
  readonly #pool: PostgresPool;
  readonly #channel: string;
  readonly #instance: string;
  readonly #listeners = new Set<(wakeUp: StorageWakeUp) => void>();
  #client: PostgresClient | undefined;
  #connecting: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;
  #closed = false;

  constructor(pool: PostgresPool, channel: string, instance: string) {
    this.#pool = pool;
    this.#channel = channel;
    this.#instance = instance;
  }

  async subscribe(listener: (wakeUp: StorageWakeUp) => void): Promise<Unsubscribe> {
    this.#listeners.add(listener);
    try {
      await this.#listen();
    } catch (error) {
      this.#listeners.delete(listener);
      throw error;
    }
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.#stop();
    };
  }

  /** Stops listening for good (the adapter closes). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await this.#stop();
  }

  #listen(): Promise<void> {
    if (this.#client !== undefined) return Promise.resolve();
    this.#connecting ??= (async () => {
      const client = await this.#pool.connect();
      try {
        client.on('notification', this.#onNotification);
        client.on('error', this.#onError);
        await client.query(queryConfig(`LISTEN ${quoteIdentifier(this.#channel)}`));
      } catch (error) {
        this.#detach(client);
        client.release(true);
        throw error;
      }
      this.#client = client;
      this.#failures = 0;
    })().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #stop(): Promise<void> {
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    this.#detach(client);
    try {
      await client.query(queryConfig(`UNLISTEN ${quoteIdentifier(this.#channel)}`));
      client.release();
    } catch {
      client.release(true);
    }
  }

  #detach(client: PostgresClient): void {
    client.removeListener('notification', this.#onNotification);
    client.removeListener('error', this.#onError);
  }

  readonly #onNotification = (message: PostgresNotification): void => {
    if (message.channel !== this.#channel || message.payload === undefined) return;
    let payload: Payload;
    try {
      payload = JSON.parse(message.payload) as Payload;
    } catch {
      return;
    }
    const local = payload.i === this.#instance;
    if (payload.w !== undefined) {
      this.#emit({
        topic: 'work',
        availableAt: formatTime(payload.w[0]),
        priority: payload.w[1],
        local,
      });
    }
    if (payload.d !== undefined) {
      this.#emit({ topic: 'deliveries', availableAt: formatTime(payload.d), local });
    }
    if (payload.r !== undefined) {
      this.#emit({ topic: 'runs', runIds: payload.r.length > 0 ? payload.r : undefined, local });
    }
  };

  readonly #onError = (): void => {
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) {
      this.#detach(client);
      client.release(true);
    }
    this.#reconnect();
  };

  #reconnect(): void {
    if (this.#closed || this.#listeners.size === 0 || this.#retry !== undefined) return;
    const delay = BACKOFF_MS[Math.min(this.#failures++, BACKOFF_MS.length - 1)] as number;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#listen().then(
        () => {
          // What was sent while nobody listened is lost: everyone looks.
          this.#emit({ topic: 'work', local: false });
          this.#emit({ topic: 'deliveries', local: false });
          this.#emit({ topic: 'runs', local: false });
        },
        () => this.#reconnect(),
      );
    }, delay);
    this.#retry.unref();
  }

  #emit(wakeUp: StorageWakeUp): void {
    for (const listener of this.#listeners) {
      try {
        listener(wakeUp);
      } catch {
        // A listener's failure is its own; the others still hear.
      }
    }
  }
}
