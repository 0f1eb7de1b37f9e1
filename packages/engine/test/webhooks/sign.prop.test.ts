import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWebhookVerificationError, signWebhook, verifyWebhook } from '../../src/webhooks/sign.ts';

const HEX = '0123456789abcdef';

function replaceAt(text: string, index: number, char: string): string {
  return text.slice(0, index) + char + text.slice(index + 1);
}

function rejects(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (error) {
    if (isWebhookVerificationError(error)) return true;
    throw error;
  }
}

const request = fc.record({
  body: fc.uint8Array({ minLength: 0, maxLength: 300 }),
  secret: fc.string({ minLength: 1, maxLength: 64 }),
  timestamp: fc.integer({ min: 1, max: 4_000_000_000 }),
  skewSeconds: fc.integer({ min: -300, max: 300 }),
});

function sign(r: { body: Uint8Array; secret: string; timestamp: number }) {
  return {
    'x-service-request-timestamp': String(r.timestamp),
    'x-service-request-signature': signWebhook(r.body, r.secret, r.timestamp),
  };
}

describe('verifyWebhook (property)', () => {
  it('accepts every genuine request within the tolerance', () => {
    fc.assert(
      fc.property(request, (r) => {
        const now = (r.timestamp + r.skewSeconds) * 1000;
        expect(verifyWebhook(r.body, sign(r), r.secret, { now }).timestamp).toBe(r.timestamp);
      }),
    );
  });

  it('rejects a one-byte change of the body', () => {
    fc.assert(
      fc.property(
        request.filter((r) => r.body.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (r, i, delta) => {
          const tampered = Uint8Array.from(r.body);
          const index = i % tampered.length;
          tampered[index] = ((tampered[index] ?? 0) + delta) % 256;
          const now = r.timestamp * 1000;
          expect(rejects(() => verifyWebhook(tampered, sign(r), r.secret, { now }))).toBe(true);
        },
      ),
    );
  });

  it('rejects a one-character change of the signature', () => {
    fc.assert(
      fc.property(request, fc.nat(), fc.integer({ min: 1, max: 15 }), (r, i, delta) => {
        const headers = sign(r);
        const sig = headers['x-service-request-signature'];
        const index = i % sig.length;
        const changed = HEX[(HEX.indexOf(sig[index] ?? '0') + delta) % 16] ?? '0';
        const tampered = {
          ...headers,
          'x-service-request-signature': replaceAt(sig, index, changed),
        };
        expect(
          rejects(() => verifyWebhook(r.body, tampered, r.secret, { now: r.timestamp * 1000 })),
        ).toBe(true);
      }),
    );
  });

  it('rejects a one-character change of the timestamp, even when it stays fresh', () => {
    fc.assert(
      fc.property(
        request,
        fc.nat(),
        fc.constantFrom(...'0123456789x -'.split('')),
        (r, i, char) => {
          const headers = sign(r);
          const text = headers['x-service-request-timestamp'];
          const index = i % text.length;
          fc.pre(text[index] !== char);
          const changedTs = replaceAt(text, index, char);
          const tampered = { ...headers, 'x-service-request-timestamp': changedTs };
          // Verify at the tampered time when it is a number, so only the signature can catch it.
          const now = /^\d+$/.test(changedTs) ? Number(changedTs) * 1000 : r.timestamp * 1000;
          expect(rejects(() => verifyWebhook(r.body, tampered, r.secret, { now }))).toBe(true);
        },
      ),
    );
  });

  it('rejects another secret and any timestamp outside the tolerance', () => {
    fc.assert(
      fc.property(
        request,
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.integer({ min: 301, max: 1_000_000 }),
        fc.boolean(),
        (r, other, off, past) => {
          fc.pre(other !== r.secret);
          const now = r.timestamp * 1000;
          expect(rejects(() => verifyWebhook(r.body, sign(r), other, { now }))).toBe(true);
          const shifted = now + (past ? off : -off) * 1000;
          expect(rejects(() => verifyWebhook(r.body, sign(r), r.secret, { now: shifted }))).toBe(
            true,
          );
        },
      ),
    );
  });
});
