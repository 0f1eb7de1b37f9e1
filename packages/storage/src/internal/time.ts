import { StorageError } from '../errors.ts';
import type { ClaimableTimes } from '../storage-adapter.ts';

// RFC 3339 with a mandatory zone; Date.parse alone accepts far more than the contract promises.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

let lastParsedText: string | undefined;
let lastParsedMs = Number.NaN;

/**
 * Parses an RFC 3339 timestamp into epoch milliseconds. Leases and availability are compared as
 * numbers because strings with and without fractions (`…00Z` vs `…00.000Z`) do not sort together.
 * An error names `path`, or `path.field` with a field.
 */
export function parseTime(value: unknown, path: string, field?: string): number {
  // A commit's timestamps (and a burst of commits') are mostly one string: checked once.
  if (value === lastParsedText) return lastParsedMs;
  if (typeof value === 'string' && RFC3339.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) {
      lastParsedText = value;
      lastParsedMs = ms;
      return ms;
    }
  }
  const where = fieldPath(path, field);
  throw new StorageError(
    'INVALID_ARGUMENT',
    `${where} must be an RFC 3339 timestamp with a zone, got ${JSON.stringify(value)}`,
    { details: { path: where } },
  );
}

/**
 * `path.field`, or `path` without a field. Checks take a value's path in two parts and join them
 * only to report a failure: a commit's checks passed about forty paths, and made as text up front
 * they were about 4% of a step's allocations.
 */
export function fieldPath(path: string, field: string | undefined): string {
  return field === undefined ? path : `${path}.${field}`;
}

let lastMs = Number.NaN;
let lastText = '';

/** Epoch milliseconds as the canonical stored form, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function formatTime(ms: number): string {
  // Commits in a burst share their millisecond; formatting it once is measurable on the hot path.
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}

/** Normalizes an optional timestamp, falling back to `fallbackMs`. */
export function timeOr(value: string | undefined, fallbackMs: number, path: string): number {
  return value === undefined ? fallbackMs : parseTime(value, path);
}

/** {@link ClaimableTimes} from epoch milliseconds, infinity meaning nothing waits. */
export function claimableTimes(workMs: number, deliveriesMs: number): ClaimableTimes {
  const times: { work?: string; deliveries?: string } = {};
  if (Number.isFinite(workMs)) times.work = formatTime(workMs);
  if (Number.isFinite(deliveriesMs)) times.deliveries = formatTime(deliveriesMs);
  return times;
}
