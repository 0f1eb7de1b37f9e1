import { describe, expect, it } from 'vitest';
import { type GroupState, groupAction } from '../../src/sqlite/group-policy.ts';

const state = (s: Partial<GroupState>): GroupState => ({
  threaded: true,
  durability: 'batched',
  inFlight: 0,
  pending: 1,
  peak: 16,
  ...s,
});

describe('groupAction', () => {
  it('without a writer thread: one group at a time, at the end of its tick with batched', () => {
    expect(groupAction(state({ threaded: false, pending: 16 }))).toBe('write-at-end-of-tick');
    expect(groupAction(state({ threaded: false, inFlight: 1, pending: 16 }))).toBe('wait');
  });

  it('without a writer thread, normal and full: once the microtasks queued so far have run', () => {
    for (const durability of ['normal', 'full'] as const) {
      expect(groupAction(state({ threaded: false, durability, pending: 1 }))).toBe(
        'write-after-microtasks',
      );
      expect(groupAction(state({ threaded: false, durability, inFlight: 1 }))).toBe('wait');
    }
  });

  it('with a writer thread: half of the commits under way go at once, while the rest are made', () => {
    expect(groupAction(state({ pending: 7 }))).toBe('write-at-end-of-tick');
    expect(groupAction(state({ pending: 8 }))).toBe('write-now');
    // The second group under way: the thread writes one while the other is made.
    expect(groupAction(state({ inFlight: 1, pending: 8 }))).toBe('write-now');
    expect(groupAction(state({ inFlight: 1, pending: 3 }))).toBe('write-at-end-of-tick');
    expect(groupAction(state({ inFlight: 2, pending: 16 }))).toBe('wait');
    // One commit alone under way lately goes at once.
    expect(groupAction(state({ peak: 1 }))).toBe('write-now');
  });

  it('normal and full never wait for a delay, only for the writer thread', () => {
    for (const durability of ['normal', 'full'] as const) {
      expect(groupAction(state({ durability, pending: 1 }))).toBe('write-now');
      expect(groupAction(state({ durability, inFlight: 1, pending: 3 }))).toBe('wait');
      expect(groupAction(state({ durability, inFlight: 1, pending: 8 }))).toBe('write-now');
      expect(groupAction(state({ durability, inFlight: 2, pending: 16 }))).toBe('wait');
    }
  });
});
