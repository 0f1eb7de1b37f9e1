import { applySnapshotPatch, type JsonObject, snapshotPatch } from '@docflow/storage';
import { describe, expect, it } from 'vitest';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The patch from `prev` to `next`, checked to turn the JSON of `prev` into that of `next`. */
function roundTrip(prev: JsonObject, next: JsonObject) {
  const patch = snapshotPatch(prev, next);
  expect(applySnapshotPatch(clone(prev), clone(patch))).toEqual(clone(next));
  return patch;
}

describe('snapshotPatch', () => {
  const stepA = { id: 'a', status: 'PROCESSED', fileIds: ['f'], output: null };
  const stepB = { id: 'b', status: 'PROCESSING', fileIds: ['f'] };
  const prev: JsonObject = {
    id: 'r',
    status: 'PROCESSING',
    metadata: { k: 1 },
    steps: [stepA, stepB],
  };

  it('is empty for a copy with the same content, element copies included', () => {
    expect(roundTrip(prev, { ...prev, steps: [{ ...stepA }, { ...stepB }] })).toEqual([]);
  });

  it('sets changed fields of an element and appends new elements, not the whole list', () => {
    const stepC = { id: 'c', status: 'PROCESSING', fileIds: ['f'] };
    const next = {
      ...prev,
      steps: [{ ...stepA }, { ...stepB, status: 'PROCESSED', output: null }, stepC],
    };
    expect(roundTrip(prev, next)).toEqual([
      [['steps', 1, 'status'], 'PROCESSED'],
      [['steps', 1, 'output'], null],
      [['steps', 2], stepC],
    ]);
  });

  it('removes keys that are gone or set to undefined', () => {
    const next: Record<string, unknown> = { ...prev, status: undefined };
    delete next.metadata;
    expect(roundTrip(prev, next as JsonObject)).toEqual([[['status']], [['metadata']]]);
  });

  it('sets a value whole where more than half of it changed, or a list that shrank', () => {
    expect(roundTrip(prev, { ...prev, metadata: { k: 2 } })).toEqual([[['metadata'], { k: 2 }]]);
    expect(roundTrip(prev, { ...prev, steps: [stepA] })).toEqual([[['steps'], [stepA]]]);
    const both = [
      { ...stepA, status: 'X' },
      { ...stepB, status: 'Y' },
    ];
    expect(roundTrip(prev, { ...prev, steps: both })).toEqual([[['steps'], both]]);
  });

  it('stops three levels down and sets what is below whole', () => {
    const leaf = { c: 1, d: 1, e: 1 };
    const deep = { a: [{ b: leaf, x: 1, y: 1 }, 0, 0], z: 0 };
    const next = { a: [{ b: { ...leaf, c: 2 }, x: 1, y: 1 }, 0, 0], z: 0 };
    expect(roundTrip(deep, next)).toEqual([[['a', 0, 'b'], { c: 2, d: 1, e: 1 }]]);
  });

  it('replaces a value whose kind changed', () => {
    expect(roundTrip({ v: [1] }, { v: { x: 1 } })).toEqual([[['v'], { x: 1 }]]);
    expect(roundTrip({ v: { x: 1 } }, { v: null })).toEqual([[['v'], null]]);
  });
});

describe('keys an object inherits a value for', () => {
  it('are diffed and applied as own keys, without touching a prototype', () => {
    const prev = JSON.parse(
      '{"m":{"constructor":"a","toString":"b","__proto__":{"x":1}},"n":{"k":1,"l":2,"o":3}}',
    );
    const next = JSON.parse(
      '{"m":{},"n":{"k":1,"l":2,"o":3,"constructor":"c","__proto__":{"y":2}}}',
    );
    const patch = roundTrip(prev, next);
    expect(patch).toEqual([
      [['m'], {}],
      [['n', 'constructor'], 'c'],
      [['n', '__proto__'], { y: 2 }],
    ]);
    const applied = applySnapshotPatch(clone(prev), clone(patch));
    expect(Object.hasOwn(applied.n as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(applied.n)).toBe(Object.prototype);
    expect(() => applySnapshotPatch({ a: {} }, [[['a', '__proto__', 'polluted'], 1]])).toThrow(
      'is not an object or array',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('applySnapshotPatch', () => {
  it('names the operation whose path does not fit', () => {
    expect(() => applySnapshotPatch({ a: 1 }, [[['a', 'b'], 2]])).toThrow(
      'patch[0]: ["a"] is not an object or array',
    );
    expect(() => applySnapshotPatch({ a: [] }, [[['a', 3], 2]])).toThrow(
      "patch[0]: 3 is not an index up to the array's length",
    );
    expect(() => applySnapshotPatch({ a: [1] }, [[['a', 0]]])).toThrow(
      'patch[0]: removes an element of an array',
    );
  });
});
