import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isWebhookVerificationError,
  signWebhook,
  verifyWebhook,
  type WebhookVerificationErrorCode,
  webhookHeaderNames,
} from '../../src/webhooks/sign.ts';

const secret = 'wss_test_secret';
const body = '{"eventId":"evt_1","eventType":"workflow_run.completed","payload":{}}';
const now = 1_770_000_000_000;
const ts = Math.floor(now / 1000);

function headers(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = {
    'x-service-request-timestamp': String(ts),
    'x-service-request-signature': signWebhook(body, secret, ts),
    'x-service-api-version': '2026-02-09',
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

function codeOf(fn: () => unknown): WebhookVerificationErrorCode | 'OK' {
  try {
    fn();
    return 'OK';
  } catch (error) {
    if (isWebhookVerificationError(error)) return error.code;
    throw error;
  }
}

describe('signWebhook', () => {
  it('is the hex HMAC-SHA-256 of v0:<timestamp>:<raw body>', () => {
    const expected = createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex');
    expect(signWebhook(body, secret, ts)).toBe(expected);
    expect(signWebhook(Buffer.from(body), secret, String(ts))).toBe(expected);
  });
});

describe('verifyWebhook', () => {
  it('accepts a genuine request and reports timestamp and api version', () => {
    expect(verifyWebhook(body, headers(), secret, { now })).toEqual({
      timestamp: ts,
      apiVersion: '2026-02-09',
    });
  });

  it('looks headers up case-insensitively, in records and Headers objects', () => {
    const upper = Object.fromEntries(
      Object.entries(headers()).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect(verifyWebhook(body, upper, secret, { now }).timestamp).toBe(ts);
    expect(verifyWebhook(body, new Headers(headers()), secret, { now }).timestamp).toBe(ts);
    expect(
      verifyWebhook(
        body,
        { ...headers(), 'x-service-request-signature': [signWebhook(body, secret, ts)] },
        secret,
        {
          now,
        },
      ).timestamp,
    ).toBe(ts);
  });

  it('gives a distinct code to each reason for rejection', () => {
    const cases: [string, () => unknown, WebhookVerificationErrorCode][] = [
      [
        'missing timestamp',
        () =>
          verifyWebhook(body, headers({ 'x-service-request-timestamp': undefined }), secret, {
            now,
          }),
        'MISSING_TIMESTAMP',
      ],
      [
        'missing signature',
        () =>
          verifyWebhook(body, headers({ 'x-service-request-signature': undefined }), secret, {
            now,
          }),
        'MISSING_SIGNATURE',
      ],
      [
        'non-numeric timestamp',
        () =>
          verifyWebhook(body, headers({ 'x-service-request-timestamp': '12a' }), secret, { now }),
        'INVALID_TIMESTAMP',
      ],
      [
        'stale',
        () => verifyWebhook(body, headers(), secret, { now: now + 301_000 }),
        'TIMESTAMP_TOO_OLD',
      ],
      [
        'future',
        () => verifyWebhook(body, headers(), secret, { now: now - 301_000 }),
        'TIMESTAMP_IN_FUTURE',
      ],
      [
        'not hex',
        () =>
          verifyWebhook(body, headers({ 'x-service-request-signature': 'zz' }), secret, { now }),
        'MALFORMED_SIGNATURE',
      ],
      [
        'altered body',
        () => verifyWebhook(`${body} `, headers(), secret, { now }),
        'SIGNATURE_MISMATCH',
      ],
      [
        'wrong secret',
        () => verifyWebhook(body, headers(), 'other', { now }),
        'SIGNATURE_MISMATCH',
      ],
    ];
    for (const [name, fn, code] of cases) expect(codeOf(fn), name).toBe(code);
  });

  it('refuses its own wrong arguments with their own codes, before reading any header', () => {
    const bad = (
      rawBody: unknown,
      secretValue: unknown,
      options: Record<string, unknown> = {},
      requestHeaders: unknown = headers(),
    ) =>
      codeOf(() =>
        verifyWebhook(rawBody as string, requestHeaders as Headers, secretValue as string, {
          now,
          ...options,
        }),
      );
    // NaN once turned replay protection off: every age compared false against it.
    expect(bad(body, secret, { toleranceSeconds: Number.NaN })).toBe('INVALID_TOLERANCE');
    expect(bad(body, secret, { toleranceSeconds: Number.POSITIVE_INFINITY })).toBe(
      'INVALID_TOLERANCE',
    );
    expect(bad(body, secret, { toleranceSeconds: -1 })).toBe('INVALID_TOLERANCE');
    expect(bad(body, secret, { toleranceSeconds: '300' })).toBe('INVALID_TOLERANCE');
    // An empty key signs too: whoever knows that could forge any request.
    const emptyKeyed = headers({ 'x-service-request-signature': signWebhook(body, '', ts) });
    expect(bad(body, '', {}, emptyKeyed)).toBe('INVALID_SECRET');
    expect(bad(body, undefined)).toBe('INVALID_SECRET');
    expect(bad(body, new Uint8Array())).toBe('INVALID_SECRET');
    expect(bad(body, 42)).toBe('INVALID_SECRET');
    expect(bad(JSON.parse(body), secret)).toBe('INVALID_BODY');
    expect(bad(undefined, secret)).toBe('INVALID_BODY');
    expect(bad(body, secret, {}, null)).toBe('INVALID_HEADERS');
    expect(bad(body, secret, {}, 'x-service-request-timestamp: 1')).toBe('INVALID_HEADERS');
    expect(bad(body, secret, { now: Number.NaN })).toBe('INVALID_NOW');
    expect(bad(body, secret, { now: new Date('not a date') })).toBe('INVALID_NOW');
    // Bytes work for the body and for the secret.
    const keyBytes = new TextEncoder().encode(secret);
    expect(bad(Buffer.from(body), keyBytes)).toBe('OK');
    expect(bad(new TextEncoder().encode(body), secret)).toBe('OK');
  });

  it('honours toleranceSeconds both ways', () => {
    expect(codeOf(() => verifyWebhook(body, headers(), secret, { now: now + 299_000 }))).toBe('OK');
    expect(
      codeOf(() =>
        verifyWebhook(body, headers(), secret, { now: now + 20_000, toleranceSeconds: 10 }),
      ),
    ).toBe('TIMESTAMP_TOO_OLD');
    expect(codeOf(() => verifyWebhook(body, headers(), secret, { now: new Date(now) }))).toBe('OK');
  });
});

describe('webhookHeaderNames', () => {
  it('puts the word into the three header names and refuses words that are not header-safe', () => {
    expect(webhookHeaderNames()).toEqual({
      timestamp: 'x-service-request-timestamp',
      signature: 'x-service-request-signature',
      apiVersion: 'x-service-api-version',
    });
    expect(webhookHeaderNames('extend').signature).toBe('x-extend-request-signature');
    for (const bad of ['', 'Extend', 'a b', '-x', 'x-', 'a'.repeat(33)]) {
      expect(() => webhookHeaderNames(bad)).toThrow(/header word/);
    }
  });
});
