import { describe, expect, it } from 'vitest';
import { type Clock, isoNow, systemClock } from '../../src/clock.ts';

describe('isoNow', () => {
  it('gives the system time as toISOString does, and follows it', async () => {
    const before = Date.now();
    const first = isoNow(systemClock);
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now());
    const start = Date.now();
    while (Date.now() < start + 3) {}
    expect(Date.parse(isoNow(systemClock))).toBeGreaterThan(Date.parse(first));
  });

  it('asks any other clock for its own time, every time', () => {
    let ms = Date.UTC(2030, 0, 1);
    const clock: Clock = { now: () => new Date(ms), sleep: async () => {} };
    expect(isoNow(clock)).toBe('2030-01-01T00:00:00.000Z');
    ms += 1;
    expect(isoNow(clock)).toBe('2030-01-01T00:00:00.001Z');
  });
});
