import { describe, expect, it } from 'vitest';
import {
  attemptsSinceManualRetry,
  classifyStatus,
  MANUAL_RETRY_MARKER,
  parseRetryAfter,
  retryDelay,
} from '../../src/webhooks/retry-policy.ts';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('retry policy', () => {
  it('classifies statuses', () => {
    const kind = (status: number) => classifyStatus(status, undefined, now).kind;
    expect([200, 201, 204, 299].map(kind)).toEqual(['success', 'success', 'success', 'success']);
    expect([408, 429, 500, 502, 503, 504].map(kind)).toEqual(Array(6).fill('retry'));
    expect([301, 302, 400, 401, 403, 404, 409, 410, 422].map(kind)).toEqual(Array(9).fill('fail'));
  });

  it('reads Retry-After as seconds or an HTTP-date, on 429 and 503 only', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(classifyStatus(429, '3', now)).toEqual({ kind: 'retry', retryAfterMs: 3000 });
    expect(classifyStatus(503, '3', now)).toEqual({ kind: 'retry', retryAfterMs: 3000 });
    expect(classifyStatus(500, '3', now)).toEqual({ kind: 'retry', retryAfterMs: undefined });
  });

  it('counts attempts since the last manual retry', () => {
    const at = '2026-03-01T12:00:00Z';
    const failed = { at, status: 500, durationMs: 1, error: 'HTTP 500' };
    const marker = { at, durationMs: 0, error: MANUAL_RETRY_MARKER };
    expect(attemptsSinceManualRetry([failed, failed])).toBe(2);
    expect(attemptsSinceManualRetry([failed, failed, marker])).toBe(0);
    expect(attemptsSinceManualRetry([failed, marker, failed])).toBe(1);
  });

  it('follows the schedule within the jitter and stops after it', () => {
    const schedule = [1000, 5000];
    expect(retryDelay(schedule, 1, 0, Math.random)).toBe(1000);
    expect(retryDelay(schedule, 2, 0.2, () => 0)).toBe(4000);
    expect(retryDelay(schedule, 2, 0.2, () => 0.999999)).toBe(6000);
    expect(retryDelay(schedule, 3, 0.2, Math.random)).toBeUndefined();
  });
});
