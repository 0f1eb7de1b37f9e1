/**
 * The outbox dispatcher: claims due deliveries under a lease, POSTs each signed event to its
 * endpoint, and records the attempt. Delivery is at least once: a process that dies mid-request
 * leaves the lease to expire and the next dispatcher sends again; receivers deduplicate by
 * `eventId`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type {
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryWrite,
  StorageAdapter,
} from '@docflow/storage';
import { isStorageError } from '@docflow/storage';
import { type Clock, systemClock } from '../clock.ts';
import { EngineError, EngineErrorCode, isEngineError } from '../errors.ts';
import type { EngineEvent } from '../events/event-types.ts';
import { createPolicyFetch } from '../net/policy-fetch.ts';
import { type UrlPolicyOptions, urlPolicy } from '../net/url-policy.ts';
import {
  type AttemptOutcome,
  attemptsSinceManualRetry,
  classifyStatus,
  DEFAULT_RETRY_JITTER,
  DEFAULT_RETRY_SCHEDULE_MS,
  retryDelay,
} from './retry-policy.ts';
import { signWebhook, webhookHeaderNames } from './sign.ts';
import { SIGNED_URL_TTL_MS, type SignedUrlProvider } from './signed-url-provider.ts';
import { type StoredWebhookEndpoint, toStoredWebhookEndpoint } from './stored-endpoint.ts';

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  readonly storage: StorageAdapter;
  readonly clock?: Clock | undefined;
  /** Lease owner name; default unique per dispatcher. */
  readonly owner?: string | undefined;
  /** Wait before each retry in ms; its length is the number of retries. Default 1 s … 1 h. */
  readonly schedule?: readonly number[] | undefined;
  /** Each wait is scaled by a random factor in [1 - jitter, 1 + jitter]; default 0.2. */
  readonly jitter?: number | undefined;
  /** Per-request timeout in ms, covering connect, headers and body; default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Requests in flight at most; default 10. */
  readonly concurrency?: number | undefined;
  /** Lease of a claimed delivery in ms; default `timeoutMs` + 30 s. Must exceed `timeoutMs`. */
  readonly leaseMs?: number | undefined;
  /** Fallback poll for work committed elsewhere, in ms; default 1000. */
  readonly pollIntervalMs?: number | undefined;
  /** Upper bound on an honoured `Retry-After`, in ms; default one hour. */
  readonly maxRetryAfterMs?: number | undefined;
  /**
   * The word in the header names of every request (`x-<word>-request-signature`, …); default
   * `service`, as the interface writes them.
   */
  readonly headerWord?: string | undefined;
  /** Makes payload URLs for signed-URL delivery (see `createLoopbackBlobServer`). */
  readonly signedUrlProvider?: SignedUrlProvider | undefined;
  /**
   * The fetch underneath; default undici's, connecting only to addresses the URL policy allows.
   * Requests go through the policy either way.
   */
  readonly fetch?: typeof fetch | undefined;
  /**
   * Overrides of the `workflow` URL policy endpoints are delivered under (default: no loopback,
   * link-local or metadata addresses; docs/operations.md "Security"). Tests whose receivers
   * listen on 127.0.0.1 pass `{ allowLoopback: true }`.
   */
  readonly urlPolicy?: UrlPolicyOptions | undefined;
  /** Receivers' answers are read up to this many bytes, then the connection is dropped; default 64 KiB. */
  readonly maxResponseBytes?: number | undefined;
  /** Random source of the jitter; default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /** Told about infrastructure failures (storage down); the dispatcher keeps going. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** Options of {@link WebhookDispatcher.drain}. */
export interface DrainOptions {
  /** Reject with EngineError TIMEOUT after this many ms; default no limit. */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The dispatcher's lifecycle. */
export interface WebhookDispatcher {
  /** Starts claiming and sending. Idempotent. */
  start(): void;
  /** Stops claiming, aborts requests in flight (their deliveries go back to the outbox unchanged). */
  stop(): Promise<void>;
  /**
   * Resolves once no delivery is pending (retries included) and nothing is in flight. Starts the
   * dispatcher for the duration if it is stopped. For tests and orderly shutdowns.
   */
  drain(options?: DrainOptions): Promise<void>;
  /** Deliveries were committed: look for work now rather than at the next poll. */
  notify(): void;
  readonly running: boolean;
}

const USER_AGENT = 'docflow-webhooks/1';

interface InFlight {
  readonly promise: Promise<void>;
}

interface Claimed {
  readonly record: DeliveryRecord;
  readonly endpoint: StoredWebhookEndpoint | undefined;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 1) {
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      `Webhook dispatcher option ${name} must be a positive number, got ${String(value)}`,
    );
  }
  return v;
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' ? cause.message : error.message;
  return code === undefined ? `connection error: ${message}` : `connection error: ${code}`;
}

function toWrite(
  record: DeliveryRecord,
  status: DeliveryStatus,
  attempts: readonly DeliveryAttempt[],
  nextAttemptAt: string,
  at: string,
): DeliveryWrite {
  return {
    id: record.id,
    endpointId: record.endpointId,
    eventId: record.eventId,
    eventType: record.eventType,
    event: record.event,
    status,
    attempts,
    nextAttemptAt,
    at,
  };
}

/**
 * The payload of a signed-URL delivery: the URL in `data`, marked `object: "signed_data_url"`,
 * with the resource's `id` (the event id when the payload has none) and its `metadata`, so a
 * receiver can route the event before downloading it.
 */
function signedUrlPayload(event: EngineEvent, url: string): Record<string, unknown> {
  const payload = event.payload as { id?: unknown; metadata?: unknown };
  const id = typeof payload.id === 'string' ? payload.id : event.eventId;
  const metadata =
    typeof payload.metadata === 'object' && payload.metadata !== null
      ? { metadata: payload.metadata }
      : {};
  return { object: 'signed_data_url', id, data: url, ...metadata };
}

/**
 * A dispatcher over `storage`'s outbox.
 *
 * @example
 * const dispatcher = createWebhookDispatcher({ storage, schedule: [1000, 5000, 30000] });
 * dispatcher.start();
 * await storage.commit({ runs: [run], deliveries });
 * dispatcher.notify();
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const storage = options.storage;
  const clock = options.clock ?? systemClock;
  const owner = options.owner ?? `webhooks-${process.pid}-${randomBytes(4).toString('hex')}`;
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE_MS;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? DEFAULT_RETRY_JITTER));
  const timeoutMs = positiveInteger(options.timeoutMs, 10_000, 'timeoutMs');
  const concurrency = Math.floor(positiveInteger(options.concurrency, 10, 'concurrency'));
  const leaseMs = positiveInteger(options.leaseMs, timeoutMs + 30_000, 'leaseMs');
  const pollIntervalMs = positiveInteger(options.pollIntervalMs, 1000, 'pollIntervalMs');
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 3_600_000;
  const doFetch = createPolicyFetch({
    policy: urlPolicy('workflow', options.urlPolicy),
    maxResponseBytes: positiveInteger(options.maxResponseBytes, 64 * 1024, 'maxResponseBytes'),
    fetch: options.fetch,
  });
  const random = options.random ?? Math.random;
  const onError = options.onError ?? (() => {});
  const headers = webhookHeaderNames(options.headerWord);
  if (leaseMs <= timeoutMs) {
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      `Webhook dispatcher leaseMs (${leaseMs}) must exceed timeoutMs (${timeoutMs})`,
    );
  }

  // A store shared by processes that tells when deliveries come due (PostgreSQL): the loop sleeps
  // until the next one (another process's retry included) instead of polling, and an outcome
  // commits only while this dispatcher still holds the delivery's lease.
  const shared = storage.sharedByProcesses === true && storage.nextClaimableAt !== undefined;

  let running = false;
  let loop: Promise<void> | undefined;
  let stopController = new AbortController();
  const inFlight = new Map<string, InFlight>();
  // Claimed (leased) deliveries waiting for a free slot.
  const queue: Claimed[] = [];
  const refillAt = Math.floor(concurrency / 2);
  // Wakes the loop (new work, a free slot, a retry coming due).
  let wakeLoop: (() => void) | undefined;
  let wakeRequested = false;
  // Wakes `drain` waiters on any progress.
  const progressWaiters = new Set<() => void>();
  // When scheduled retries come due, so the loop wakes for them rather than at the next poll.
  let dueTimes: number[] = [];
  // Outcomes are committed in batches: one transaction for all that finished meanwhile.
  let pendingWrites: { write: DeliveryWrite; done: () => void }[] = [];
  let flushing: Promise<void> | undefined;

  function wake(): void {
    wakeRequested = true;
    wakeLoop?.();
  }

  function progress(): void {
    for (const resolve of progressWaiters) resolve();
    progressWaiters.clear();
  }

  function saveOutcome(write: DeliveryWrite): Promise<void> {
    return new Promise<void>((resolve) => {
      pendingWrites.push({ write, done: resolve });
      flushing ??= flush();
    });
  }

  async function flush(): Promise<void> {
    // Let the other requests finishing in this tick join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (pendingWrites.length > 0) {
      const batch = pendingWrites;
      pendingWrites = [];
      try {
        await commitOutcomes(batch.map((b) => b.write));
      } catch (error) {
        // The lease will expire and the delivery be sent again: at least once.
        onError(error);
      }
      for (const b of batch) b.done();
    }
    flushing = undefined;
  }

  /**
   * Commits delivery outcomes in one transaction. On a shared store each is fenced by its lease:
   * when one was taken over (this process stalled past it), the others commit one by one and
   * the lost one is left to its new holder.
   */
  async function commitOutcomes(writes: readonly DeliveryWrite[]): Promise<void> {
    if (!shared) {
      await storage.commit({ deliveries: writes });
      return;
    }
    const fenced = (w: DeliveryWrite) => ({ deliveryId: w.id, owner });
    try {
      await storage.commit({ deliveries: writes, fences: writes.map(fenced) });
    } catch (error) {
      if (!isStorageError(error, 'LEASE_LOST') || writes.length === 1) throw error;
      for (const w of writes) {
        await storage.commit({ deliveries: [w], fences: [fenced(w)] }).catch((e: unknown) => {
          if (!isStorageError(e, 'LEASE_LOST')) throw e;
        });
      }
    }
  }

  async function loadEndpoints(
    records: readonly DeliveryRecord[],
  ): Promise<Map<string, StoredWebhookEndpoint | undefined>> {
    const ids = [...new Set(records.map((r) => r.endpointId))];
    const docs = await Promise.all(ids.map((id) => storage.getDocument('webhookEndpoints', id)));
    return new Map(ids.map((id, i) => [id, docs[i] && toStoredWebhookEndpoint(docs[i])]));
  }

  async function attempt(
    record: DeliveryRecord,
    endpoint: StoredWebhookEndpoint,
    stopSignal: AbortSignal,
  ): Promise<{ attempt: DeliveryAttempt; outcome: AttemptOutcome } | undefined> {
    const startedAt = clock.now();
    const t0 = performance.now();
    const at = startedAt.toISOString();
    const elapsed = () => Math.round((performance.now() - t0) * 1000) / 1000;
    const event = record.event as unknown as EngineEvent;
    let body = JSON.stringify(event);
    const threshold = endpoint.signedUrlThresholdBytes;
    if (
      endpoint.deliveryFormat === 'signed_url' ||
      (threshold !== null && Buffer.byteLength(body) > threshold)
    ) {
      if (options.signedUrlProvider === undefined) {
        return {
          attempt: {
            at,
            durationMs: elapsed(),
            error: 'signed-URL delivery needs a signedUrlProvider (or the loopback blob server)',
          },
          outcome: { kind: 'fail' },
        };
      }
      let url: string;
      try {
        url = await options.signedUrlProvider(event, {
          deliveryId: record.id,
          endpointId: record.endpointId,
          expiresAt: new Date(startedAt.getTime() + SIGNED_URL_TTL_MS),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          attempt: { at, durationMs: elapsed(), error: `signedUrlProvider failed: ${message}` },
          outcome: { kind: 'retry' },
        };
      }
      body = JSON.stringify({
        eventId: event.eventId,
        eventType: event.eventType,
        payload: signedUrlPayload(event, url),
      });
    }
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    // One controller per request, aborted by the timeout or by stop(). (AbortSignal.timeout and
    // AbortSignal.any cost more than the request itself at high rates on Node 20.)
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onStop = () => controller.abort();
    stopSignal.addEventListener('abort', onStop, { once: true });
    let response: Response;
    try {
      response = await doFetch(endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        signal: controller.signal,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [headers.timestamp]: String(timestamp),
          [headers.signature]: signWebhook(body, endpoint.signingSecret, timestamp),
          [headers.apiVersion]: endpoint.apiVersion,
        },
      });
    } catch (error) {
      clearTimeout(timer);
      stopSignal.removeEventListener('abort', onStop);
      if (stopSignal.aborted) return undefined;
      if (isEngineError(error, EngineErrorCode.URL_REFUSED)) {
        // The URL will not become acceptable by waiting.
        return {
          attempt: { at, durationMs: elapsed(), error: error.message },
          outcome: { kind: 'fail' },
        };
      }
      const text = timedOut ? `timeout after ${timeoutMs} ms` : errorText(error);
      return { attempt: { at, durationMs: elapsed(), error: text }, outcome: { kind: 'retry' } };
    }
    // Read the (ignored) body so the connection can be reused; past maxResponseBytes the read
    // fails and the connection is dropped. Either way the status decided the outcome.
    try {
      await response.arrayBuffer();
    } catch {
      // The status already decided the outcome.
    } finally {
      clearTimeout(timer);
      stopSignal.removeEventListener('abort', onStop);
    }
    const outcome = classifyStatus(
      response.status,
      response.headers.get('retry-after'),
      clock.now().getTime(),
    );
    const result: DeliveryAttempt =
      outcome.kind === 'success'
        ? { at, status: response.status, durationMs: elapsed() }
        : { at, status: response.status, durationMs: elapsed(), error: `HTTP ${response.status}` };
    return { attempt: result, outcome };
  }

  async function processDelivery(
    record: DeliveryRecord,
    endpoint: StoredWebhookEndpoint | undefined,
    stopSignal: AbortSignal,
  ): Promise<void> {
    let result: { attempt: DeliveryAttempt; outcome: AttemptOutcome } | undefined;
    if (endpoint === undefined) {
      result = {
        attempt: { at: clock.now().toISOString(), durationMs: 0, error: 'endpoint deleted' },
        outcome: { kind: 'fail' },
      };
    } else {
      try {
        result = await attempt(record, endpoint, stopSignal);
      } catch (error) {
        result = {
          attempt: { at: clock.now().toISOString(), durationMs: 0, error: errorText(error) },
          outcome: { kind: 'retry' },
        };
      }
    }
    const nowMs = clock.now().getTime();
    const now = new Date(nowMs).toISOString();
    if (result === undefined) {
      // Stopped mid-request: give the delivery back untouched, due now.
      await saveOutcome(toWrite(record, 'pending', record.attempts, record.nextAttemptAt, now));
      return;
    }
    const attempts = [...record.attempts, result.attempt];
    const { outcome } = result;
    if (outcome.kind === 'success') {
      await saveOutcome(toWrite(record, 'succeeded', attempts, now, now));
      return;
    }
    const retryNumber = attemptsSinceManualRetry(attempts);
    const scheduled = retryDelay(schedule, retryNumber, jitter, random);
    if (outcome.kind === 'fail' || scheduled === undefined) {
      await saveOutcome(toWrite(record, 'failed', attempts, now, now));
      return;
    }
    const delay =
      outcome.retryAfterMs === undefined
        ? scheduled
        : Math.min(maxRetryAfterMs, outcome.retryAfterMs);
    const dueMs = nowMs + delay;
    await saveOutcome(toWrite(record, 'pending', attempts, new Date(dueMs).toISOString(), now));
    dueTimes.push(dueMs);
  }

  function launch(item: Claimed): void {
    const { record: rec, endpoint } = item;
    const promise = processDelivery(rec, endpoint, stopController.signal)
      .catch(onError)
      .finally(() => {
        inFlight.delete(rec.id);
        pump();
        // Refill in batches rather than one claim per finished request.
        if (queue.length <= refillAt) wake();
        progress();
      });
    inFlight.set(rec.id, { promise });
  }

  function pump(): void {
    while (running && inFlight.size < concurrency) {
      const item = queue.shift();
      if (item === undefined) return;
      launch(item);
    }
  }

  /** `claimedAtMs`: the time the claim of this turn of the loop used, if it claimed. */
  async function waitForWake(claimedAtMs: number | undefined): Promise<void> {
    if (wakeRequested) return;
    const nowMs = clock.now().getTime();
    // Due times up to the claim's time were served by it. One that fell due since (the claim
    // took time) was not: claim again at once. Without a claim this turn (no room), due work
    // waits for the wake-up of the next request that finishes.
    if (claimedAtMs !== undefined) dueTimes = dueTimes.filter((t) => t > claimedAtMs);
    let ms = pollIntervalMs;
    if (shared && claimedAtMs !== undefined) {
      // Wake-ups of other processes' deliveries come through notify(); their retries do not:
      // sleep until the store's next due time, at most a lease (wake-ups are hints).
      ms = leaseMs;
      try {
        const next = (await storage.nextClaimableAt?.({}))?.deliveries;
        if (next !== undefined) dueTimes.push(Math.max(Date.parse(next), claimedAtMs + 50));
      } catch (error) {
        if (running) onError(error);
        ms = pollIntervalMs;
      }
      if (wakeRequested) return;
    }
    for (const t of dueTimes) {
      if (t > nowMs) ms = Math.min(ms, t - nowMs);
      else if (claimedAtMs !== undefined) return;
    }
    if (clock === systemClock) {
      // The common case, without an AbortController and an AbortError per wait (measurable at
      // hundreds of wake-ups per second).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeLoop = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    } else {
      const controller = new AbortController();
      await new Promise<void>((resolve) => {
        wakeLoop = resolve;
        clock.sleep(ms, controller.signal).then(resolve, () => {});
      });
      controller.abort();
    }
    wakeLoop = undefined;
  }

  async function runLoop(): Promise<void> {
    while (running) {
      wakeRequested = false;
      pump();
      // Claim ahead (up to twice the concurrency) so a finished request starts the next one
      // without a storage round trip.
      const want = 2 * concurrency - inFlight.size - queue.length;
      let claimed = 0;
      let claimedAtMs: number | undefined;
      if (queue.length <= refillAt && want > 0) {
        try {
          const now = clock.now();
          claimedAtMs = now.getTime();
          const records = (
            await storage.claimDeliveries({
              owner,
              limit: want,
              leaseMs,
              now: now.toISOString(),
            })
          ).filter((r) => !inFlight.has(r.id) && !queue.some((q) => q.record.id === r.id));
          claimed = records.length;
          if (claimed > 0) {
            const endpoints = await loadEndpoints(records);
            for (const record of records) {
              queue.push({ record, endpoint: endpoints.get(record.endpointId) });
            }
            pump();
          }
        } catch (error) {
          onError(error);
          wakeRequested = false;
          // Nothing was served: due times stay for the next claim.
          claimedAtMs = undefined;
        }
      }
      if (!running) break;
      if (claimed === 0 && inFlight.size === 0 && queue.length === 0) progress();
      if (claimed > 0 && claimed === want) continue;
      await waitForWake(claimedAtMs);
    }
    // Stopped: give claimed deliveries that never started back to the outbox.
    const now = clock.now().toISOString();
    for (const { record } of queue.splice(0)) {
      void saveOutcome(toWrite(record, 'pending', record.attempts, record.nextAttemptAt, now));
    }
  }

  const dispatcher: WebhookDispatcher = {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      stopController = new AbortController();
      loop = runLoop();
    },
    async stop() {
      if (!running) return;
      running = false;
      stopController.abort();
      wake();
      await loop;
      await Promise.all([...inFlight.values()].map((f) => f.promise));
      await flushing;
      progress();
    },
    notify() {
      wake();
    },
    async drain(drainOptions = {}) {
      const wasRunning = running;
      if (!wasRunning) dispatcher.start();
      const deadline =
        drainOptions.timeoutMs === undefined ? undefined : Date.now() + drainOptions.timeoutMs;
      try {
        for (;;) {
          drainOptions.signal?.throwIfAborted();
          if (
            inFlight.size === 0 &&
            queue.length === 0 &&
            pendingWrites.length === 0 &&
            flushing === undefined
          ) {
            const page = await storage.listDeliveries({ status: 'pending', pageSize: 1 });
            if (page.items.length === 0) return;
          }
          if (deadline !== undefined && Date.now() > deadline) {
            throw new EngineError(
              EngineErrorCode.TIMEOUT,
              `Webhook deliveries still pending after ${drainOptions.timeoutMs} ms`,
            );
          }
          await new Promise<void>((resolve) => {
            progressWaiters.add(resolve);
            setTimeout(resolve, 20).unref();
          });
        }
      } finally {
        if (!wasRunning) await dispatcher.stop();
      }
    },
  };
  return dispatcher;
}
