import { describe, expect, it } from 'vitest';
import { isStorageError } from '../../src/errors.ts';
import { formatTime, parseTime } from '../../src/internal/time.ts';

describe('times', () => {
  it('parse RFC 3339 with any fraction and zone to the same instant', () => {
    const ms = Date.UTC(2030, 0, 1, 12, 0, 0);
    expect(parseTime('2030-01-01T12:00:00Z', 'at')).toBe(ms);
    expect(parseTime('2030-01-01T12:00:00.000Z', 'at')).toBe(ms);
    expect(parseTime('2030-01-01T14:00:00+02:00', 'at')).toBe(ms);
    expect(formatTime(ms)).toBe('2030-01-01T12:00:00.000Z');
  });

  it('answer a repeated text from the last parse, and only that text', () => {
    const a = '2030-01-01T12:00:00.000Z';
    const b = '2030-01-01T12:00:00.001Z';
    expect([parseTime(a, 'at'), parseTime(a, 'at')]).toEqual([Date.parse(a), Date.parse(a)]);
    expect(parseTime(b, 'at')).toBe(Date.parse(a) + 1);
    expect(() => parseTime('2030-01-01T12:00:00', 'at')).toThrow('RFC 3339');
    expect(parseTime(a, 'at')).toBe(Date.parse(a));
  });

  it('refuse anything else, naming the path', () => {
    for (const bad of [
      '2030-01-01',
      '2030-01-01T12:00:00',
      'tomorrow',
      '',
      17,
      null,
      '2030-13-45T99:00:00Z',
    ]) {
      try {
        parseTime(bad, 'changes.runs[0].at');
        expect.unreachable(String(bad));
      } catch (error) {
        expect(isStorageError(error, 'INVALID_ARGUMENT')).toBe(true);
        expect((error as Error).message).toContain('changes.runs[0].at');
      }
    }
  });
});
