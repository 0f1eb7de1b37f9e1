/**
 * What the dispatcher does after an attempt: which outcomes are retried, how long it waits
 * (exponential schedule with jitter, or the receiver's `Retry-After`), and when it gives up.
 */
import type { DeliveryAttempt } from '@docflow/storage';

/**
 * The default wait before each retry, in milliseconds: 1 s, 5 s, 30 s, 2 min, 10 min, 1 h.
 * Seven attempts in all over about 73 minutes, before jitter.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  1_000, 5_000, 30_000, 120_000, 600_000, 3_600_000,
];

/** Default jitter: each wait is scaled by a random factor in [0.8, 1.2]. */
export const DEFAULT_RETRY_JITTER = 0.2;

/** The `error` of the marker attempt that `webhookDeliveries.retry` appends. */
export const MANUAL_RETRY_MARKER = 'manual retry requested';

/** How an attempt ended, as far as retrying is concerned. */
export type AttemptOutcome =
  | { readonly kind: 'success' }
  | { readonly kind: 'retry'; readonly retryAfterMs?: number | undefined }
  | { readonly kind: 'fail' };

/**
 * Classifies an HTTP status. 2xx: success. 408 (Request Timeout), 429 and 5xx: retried, with
 * `Retry-After` honoured on 429 and 503. Every other status, 3xx (redirects are not followed) and
 * 4xx including 409, fails permanently: the receiver answered and resending the same signed body
 * will not change its answer.
 */
export function classifyStatus(
  status: number,
  retryAfter: string | null | undefined,
  nowMs: number,
): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: 'success' };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs =
      status === 429 || status === 503 ? parseRetryAfter(retryAfter, nowMs) : undefined;
    return { kind: 'retry', retryAfterMs };
  }
  return { kind: 'fail' };
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP-date; undefined if invalid. */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Attempts made since the delivery was created or last re-queued by hand. */
export function attemptsSinceManualRetry(attempts: readonly DeliveryAttempt[]): number {
  let count = 0;
  for (let i = attempts.length - 1; i >= 0; i--) {
    if (attempts[i]?.error === MANUAL_RETRY_MARKER && attempts[i]?.status === undefined) break;
    count++;
  }
  return count;
}

/**
 * The wait before retry number `retry` (1-based), or undefined when the schedule is exhausted.
 * Jitter spreads retries of many deliveries that failed together.
 */
export function retryDelay(
  schedule: readonly number[],
  retry: number,
  jitter: number,
  random: () => number,
): number | undefined {
  const base = schedule[retry - 1];
  if (base === undefined) return undefined;
  return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * random())));
}
