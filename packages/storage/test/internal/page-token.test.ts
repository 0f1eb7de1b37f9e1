import { describe, expect, it } from 'vitest';
import { isStorageError } from '../../src/errors.ts';
import {
  decodePageToken,
  encodePageToken,
  queryFingerprint,
} from '../../src/internal/page-token.ts';

const rejects = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isStorageError(error, 'INVALID_PAGE_TOKEN');
  }
  return false;
};

describe('page tokens', () => {
  it('round-trip the last seq for the same query and order', () => {
    const f = queryFingerprint('runs', { status: 'PENDING', kind: undefined });
    const token = encodePageToken({ seq: 42 }, 'asc', f);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(token, 'asc', f)).toEqual({ seq: 42 });
    expect(decodePageToken(undefined, 'asc', f)).toBeUndefined();
  });

  it('carry the last updatedAt in a list by update time, and only there', () => {
    const f = queryFingerprint('runs', { sortBy: 'updatedAt' });
    const at = '2026-11-26T02:00:00.000Z';
    const token = encodePageToken({ seq: 7, updatedAt: at }, 'desc', f);
    expect(decodePageToken(token, 'desc', f, true)).toEqual({ seq: 7, updatedAt: at });
    expect(rejects(() => decodePageToken(token, 'desc', f))).toBe(true);
    const plain = encodePageToken({ seq: 7 }, 'desc', f);
    expect(rejects(() => decodePageToken(plain, 'desc', f, true))).toBe(true);
  });

  it('ignore undefined filters but tell different values, scopes and orders apart', () => {
    expect(queryFingerprint('runs', { a: undefined })).toBe(queryFingerprint('runs', {}));
    expect(queryFingerprint('runs', { active: true })).not.toBe(
      queryFingerprint('runs', { active: false }),
    );
    expect(queryFingerprint('documents:files', {})).not.toBe(
      queryFingerprint('documents:workflows', {}),
    );
    const f = queryFingerprint('runs', {});
    const token = encodePageToken({ seq: 1 }, 'desc', f);
    expect(rejects(() => decodePageToken(token, 'asc', f))).toBe(true);
    expect(
      rejects(() => decodePageToken(token, 'desc', queryFingerprint('runs', { kind: 'x' }))),
    ).toBe(true);
  });

  it('refuse garbage, other JSON and non-integer positions', () => {
    const f = queryFingerprint('runs', {});
    for (const bad of [
      '',
      '!!!',
      'e30',
      Buffer.from('{"v":1,"s":1.5,"o":"a","f":"x"}').toString('base64url'),
      Buffer.from('[]').toString('base64url'),
    ]) {
      expect(
        rejects(() => decodePageToken(bad, 'asc', f)),
        bad,
      ).toBe(true);
    }
  });
});
