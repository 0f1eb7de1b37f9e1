/**
 * Webhook signatures, the interface's "Signature verification": hex HMAC-SHA-256 over
 * `v0:<timestamp>:<raw body>` keyed with the endpoint's signing secret. The timestamp is Unix
 * seconds, as a decimal integer string in `x-service-request-timestamp`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying the Unix-seconds timestamp the signature covers. */
export const TIMESTAMP_HEADER = 'x-service-request-timestamp';
/** Header carrying the hex HMAC-SHA-256 signature. */
export const SIGNATURE_HEADER = 'x-service-request-signature';
/** Header carrying the endpoint's pinned API version. */
export const API_VERSION_HEADER = 'x-service-api-version';

/** The word the interface writes in header names (`x-service-…`); the default of every option. */
export const DEFAULT_HEADER_WORD = 'service';

/** The three header names of a signed webhook request, for one header word. */
export interface WebhookHeaderNames {
  readonly timestamp: string;
  readonly signature: string;
  readonly apiVersion: string;
}

const HEADER_WORD = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/**
 * The webhook header names for a header word: `x-<word>-request-timestamp`,
 * `x-<word>-request-signature`, `x-<word>-api-version`. the interface writes `service`; a server that
 * stands in for a service whose SDK expects another word (`extend`) passes that word.
 *
 * @example
 * webhookHeaderNames('extend').signature; // 'x-extend-request-signature'
 */
export function webhookHeaderNames(word: string = DEFAULT_HEADER_WORD): WebhookHeaderNames {
  if (typeof word !== 'string' || !HEADER_WORD.test(word)) {
    throw new TypeError(
      `A header word is 1 to 32 lowercase letters, digits or inner hyphens, got ${JSON.stringify(word)}`,
    );
  }
  return {
    timestamp: `x-${word}-request-timestamp`,
    signature: `x-${word}-request-signature`,
    apiVersion: `x-${word}-api-version`,
  };
}

/** The default replay window of {@link verifyWebhook}, the interface's 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Stable codes of {@link WebhookVerificationError}, one per reason a request is rejected. */
export const WebhookVerificationErrorCode = {
  /** `x-service-request-timestamp` is absent or empty. */
  MISSING_TIMESTAMP: 'MISSING_TIMESTAMP',
  /** `x-service-request-signature` is absent or empty. */
  MISSING_SIGNATURE: 'MISSING_SIGNATURE',
  /** The timestamp is not a non-negative integer number of Unix seconds. */
  INVALID_TIMESTAMP: 'INVALID_TIMESTAMP',
  /** The timestamp is older than the tolerance: a replay or a very late request. */
  TIMESTAMP_TOO_OLD: 'TIMESTAMP_TOO_OLD',
  /** The timestamp is further in the future than the tolerance. */
  TIMESTAMP_IN_FUTURE: 'TIMESTAMP_IN_FUTURE',
  /** The signature is not 64 hexadecimal characters. */
  MALFORMED_SIGNATURE: 'MALFORMED_SIGNATURE',
  /** The signature does not match the body, timestamp and secret: altered or forged. */
  SIGNATURE_MISMATCH: 'SIGNATURE_MISMATCH',
  /** The caller's mistake: the secret is not a non-empty string or Uint8Array (an unset variable). */
  INVALID_SECRET: 'INVALID_SECRET',
  /** The caller's mistake: `toleranceSeconds` is not a finite number of seconds, zero or more. */
  INVALID_TOLERANCE: 'INVALID_TOLERANCE',
  /** The caller's mistake: the body is not the raw string or bytes (a parsed object, undefined). */
  INVALID_BODY: 'INVALID_BODY',
  /** The caller's mistake: the headers are not a `Headers` or a plain object. */
  INVALID_HEADERS: 'INVALID_HEADERS',
  /** The caller's mistake: `now` is not a valid Date or a finite number of milliseconds. */
  INVALID_NOW: 'INVALID_NOW',
} as const;

/** A {@link WebhookVerificationError} code. */
export type WebhookVerificationErrorCode =
  (typeof WebhookVerificationErrorCode)[keyof typeof WebhookVerificationErrorCode];

/** Thrown by {@link verifyWebhook} when a request is not authentic or not fresh. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** True when `value` is a {@link WebhookVerificationError}, optionally with the given code. */
export function isWebhookVerificationError(
  value: unknown,
  code?: WebhookVerificationErrorCode,
): value is WebhookVerificationError {
  return value instanceof WebhookVerificationError && (code === undefined || value.code === code);
}

/** Request headers as a fetch `Headers` or a plain record (Node's `IncomingHttpHeaders`). */
export type WebhookHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined };

/** The raw request body exactly as received: the string or its bytes. */
export type RawBody = string | Uint8Array;

/**
 * The hex HMAC-SHA-256 of `v0:<timestamp>:<raw body>` with `secret`.
 *
 * @example
 * const signature = signWebhook('{"eventId":"evt_1"}', secret, Math.floor(Date.now() / 1000));
 */
export function signWebhook(
  rawBody: RawBody,
  secret: string | Uint8Array,
  timestamp: number | string,
): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance, in seconds, between the timestamp and now, both ways. */
  readonly toleranceSeconds?: number;
  /** "Now" as a Date or Unix milliseconds (tests); defaults to the system clock. */
  readonly now?: Date | number;
  /** The word in the header names (`x-<word>-request-signature`); default `service`. */
  readonly headerWord?: string;
}

/** What a successful {@link verifyWebhook} learned from the headers. */
export interface VerifiedWebhook {
  /** The signed timestamp, Unix seconds. */
  readonly timestamp: number;
  /** The `x-service-api-version` header, when present. */
  readonly apiVersion?: string;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    return headers.get(name) ?? undefined;
  }
  const record = headers as { readonly [name: string]: string | readonly string[] | undefined };
  // Header names are case-insensitive; a plain record may carry any case.
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue;
    const value = record[key];
    return typeof value === 'string' ? value : value?.[0];
  }
  return undefined;
}

function invalid(code: WebhookVerificationErrorCode, message: string): never {
  throw new WebhookVerificationError(code, message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? `an ${value.constructor?.name ?? 'object'}` : typeof value;
}

/**
 * Checks the arguments themselves, before any header: a mistake there (an unset secret, NaN as
 * tolerance, a parsed body) must not pass a request or turn replay protection off silently.
 */
function checkArguments(
  rawBody: unknown,
  headers: unknown,
  secret: unknown,
  options: VerifyWebhookOptions,
): { tolerance: number; nowMs: number } {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    invalid(
      WebhookVerificationErrorCode.INVALID_BODY,
      `The body must be the raw request body as a string or bytes (before JSON parsing), got ${describe(rawBody)}`,
    );
  }
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    invalid(
      WebhookVerificationErrorCode.INVALID_HEADERS,
      `The headers must be a Headers or a plain object of header values, got ${describe(headers)}`,
    );
  }
  const emptyBytes = secret instanceof Uint8Array && secret.byteLength === 0;
  if (
    (typeof secret !== 'string' && !(secret instanceof Uint8Array)) ||
    secret === '' ||
    emptyBytes
  ) {
    invalid(
      WebhookVerificationErrorCode.INVALID_SECRET,
      `The secret must be the endpoint's signing secret, a non-empty string or Uint8Array, got ${emptyBytes ? 'empty bytes' : describe(secret)}`,
    );
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    invalid(
      WebhookVerificationErrorCode.INVALID_TOLERANCE,
      `toleranceSeconds must be a finite number of seconds, zero or more, got ${describe(tolerance)}`,
    );
  }
  const now = options.now;
  const nowMs =
    now === undefined ? Date.now() : now instanceof Date ? now.getTime() : (now as unknown);
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    invalid(
      WebhookVerificationErrorCode.INVALID_NOW,
      `now must be a valid Date or a finite number of Unix milliseconds, got ${now instanceof Date ? 'an invalid Date' : describe(now)}`,
    );
  }
  return { tolerance, nowMs };
}

const DEFAULT_NAMES = webhookHeaderNames();
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/**
 * Checks that a webhook request is authentic (its signature matches the raw body, timestamp and
 * `secret`, compared in constant time) and fresh (its timestamp is within `toleranceSeconds` of
 * now, default 300). Throws {@link WebhookVerificationError} with a distinct `code` per reason;
 * returns what it verified otherwise. Pass the body exactly as received, before any JSON parsing.
 * Wrong arguments (an empty or missing secret, a tolerance that is not a finite number of seconds
 * zero or more, a body that is not a string or bytes) throw with their own codes
 * (`INVALID_SECRET`, `INVALID_TOLERANCE`, `INVALID_BODY`, …) before any header is read: they are
 * the receiver's bug, and must never verify a request.
 *
 * @example
 * const raw = await request.text();
 * verifyWebhook(raw, request.headers, process.env.SIGNING_SECRET);
 * const event = JSON.parse(raw);
 */
export function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secret: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  const { tolerance, nowMs } = checkArguments(rawBody, headers, secret, options ?? {});
  const names =
    options.headerWord === undefined ? DEFAULT_NAMES : webhookHeaderNames(options.headerWord);
  const timestampText = header(headers, names.timestamp)?.trim();
  if (!timestampText) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.MISSING_TIMESTAMP,
      `Missing ${names.timestamp} header`,
    );
  }
  const signature = header(headers, names.signature)?.trim();
  if (!signature) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.MISSING_SIGNATURE,
      `Missing ${names.signature} header`,
    );
  }
  if (!UNIX_SECONDS.test(timestampText)) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.INVALID_TIMESTAMP,
      `${names.timestamp} must be an integer number of Unix seconds`,
    );
  }
  const timestamp = Number(timestampText);
  const age = nowMs / 1000 - timestamp;
  if (age > tolerance) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.TIMESTAMP_TOO_OLD,
      `Timestamp is ${Math.floor(age)} s old, more than the tolerance of ${tolerance} s`,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.TIMESTAMP_IN_FUTURE,
      `Timestamp is ${Math.ceil(-age)} s in the future, more than the tolerance of ${tolerance} s`,
    );
  }
  if (!HEX_SIGNATURE.test(signature)) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.MALFORMED_SIGNATURE,
      `${names.signature} must be 64 hexadecimal characters`,
    );
  }
  // Sign the header text exactly as sent, so that a re-formatted timestamp ("0123") fails.
  const expected = Buffer.from(signWebhook(rawBody, secret, timestampText), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError(
      WebhookVerificationErrorCode.SIGNATURE_MISMATCH,
      'Signature does not match the body, timestamp and secret',
    );
  }
  const apiVersion = header(headers, names.apiVersion);
  return apiVersion === undefined ? { timestamp } : { timestamp, apiVersion };
}
