import type { JsonObject, JsonValue } from './json-value.ts';

/** Where a patch operation applies: object keys and array indexes from the snapshot's root. */
export type SnapshotPath = readonly (string | number)[];

/**
 * One change of a {@link RunWrite.patch}: `[path, value]` sets the value at `path` (an array
 * index at most the array's length, which appends); `[path]` removes an object key.
 */
export type SnapshotPatchOp =
  | readonly [path: SnapshotPath, value: JsonValue]
  | readonly [SnapshotPath];

/** How deep `snapshotPatch` looks: top-level values, their elements or fields, theirs. */
const PATCH_DEPTH = 3;

/**
 * `object[key]` if `object` has it, else undefined: not what it inherits (`constructor`,
 * `toString`, `__proto__` are keys a JSON object may have, and values it inherits otherwise).
 * JSON values are never functions, so only `__proto__` needs the slower check.
 */
function ownValue(object: Record<string, unknown>, key: string): unknown {
  const value = object[key];
  if (typeof value === 'function') return undefined;
  if (key === '__proto__') return Object.hasOwn(object, key) ? value : undefined;
  return value;
}

/**
 * How many keys an object has, as `for…in` walks them (a JSON object's own keys): the count of
 * `Object.keys` without making the list, on every object a step commit compares.
 */
function keyCount(object: Record<string, unknown>): number {
  let count = 0;
  for (const _key in object) count++;
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ops that turn `before` into `after` at `path`, appended to `ops`: the value whole where it
 * is not an object or array of the same kind, where the path is `PATCH_DEPTH` deep, or where
 * more than half of its entries changed; otherwise one op per changed entry, recursively. An
 * entry that is a copy with the same content (a draft's) counts as unchanged. `path` is shared
 * and copied only into the ops it makes (this runs on every step commit).
 */
function diffInto(
  ops: SnapshotPatchOp[],
  path: (string | number)[],
  before: unknown,
  after: unknown,
): void {
  if (before === after) return;
  if (after === undefined) {
    ops.push([path.slice()]);
    return;
  }
  const mark = ops.length;
  let entries = 0;
  let changed = 0;
  if (path.length >= PATCH_DEPTH) {
    changed = 1;
  } else if (Array.isArray(before) && Array.isArray(after)) {
    if (after.length < before.length) changed = 1;
    else {
      // Appended elements go as they are either way: only changes to existing ones count.
      entries = before.length;
      for (let i = 0; i < after.length; i++) {
        const element: unknown = after[i];
        if (i < before.length) {
          if (before[i] === element) continue;
          const count = ops.length;
          path.push(i);
          diffInto(ops, path, before[i], element);
          path.pop();
          if (ops.length > count) changed++;
        } else {
          path.push(i);
          ops.push([path.slice(), element as JsonValue]);
          path.pop();
        }
      }
    }
  } else if (isPlainObject(before) && isPlainObject(after)) {
    let shared = 0;
    for (const key in after) {
      const value = after[key];
      const old = ownValue(before, key);
      if (value !== undefined) entries++;
      if (old !== undefined) shared++;
      if (old === value) continue;
      const count = ops.length;
      path.push(key);
      diffInto(ops, path, old, value);
      path.pop();
      if (ops.length > count) changed++;
    }
    // Keys only `before` has: looked for only when it has more keys than `after` shares.
    if (keyCount(before) > shared) {
      for (const key in before) {
        if (before[key] === undefined || Object.hasOwn(after, key)) continue;
        changed++;
        path.push(key);
        ops.push([path.slice()]);
        path.pop();
      }
    }
  } else changed = 1;
  if (path.length > 0 && changed > 0 && (entries === 0 || changed * 2 > entries)) {
    ops.length = mark;
    ops.push([path.slice(), after as JsonValue]);
  }
}

/**
 * The patch that turns `prev` into `next`, for snapshots that share what did not change (the
 * engine replaces a changed value, never changes one in place): it compares references, object
 * fields and array elements down to three levels (a step run's fields in the engine's state),
 * and sets a value whole where more than half of it changed. Cheap, because it compares
 * references; it finds no change made in place, which is why it is only for states built that
 * way.
 */
export function snapshotPatch(prev: JsonObject, next: JsonObject): SnapshotPatchOp[] {
  const ops: SnapshotPatchOp[] = [];
  diffInto(ops, [], prev, next);
  return ops;
}

/**
 * Applies `ops` to `target` in place (a snapshot parsed from storage, owned by the caller) and
 * returns it. Throws, naming the operation, where a path does not lead through objects or arrays.
 */
export function applySnapshotPatch(
  target: JsonObject,
  ops: readonly SnapshotPatchOp[],
  where = 'patch',
): JsonObject {
  for (let o = 0; o < ops.length; o++) {
    const op = ops[o] as SnapshotPatchOp;
    const path = op[0];
    let container: unknown = target;
    for (let i = 0; i < path.length - 1; i++) {
      const step = path[i] as string | number;
      // Own properties only: a path through `__proto__` must not reach a shared prototype.
      container = Object.hasOwn(container as object, step)
        ? (container as Record<string | number, unknown>)[step]
        : undefined;
      if (typeof container !== 'object' || container === null) {
        throw new Error(
          `${where}[${o}]: ${JSON.stringify(path.slice(0, i + 1))} is not an object or array`,
        );
      }
    }
    const key = path[path.length - 1] as string | number;
    if (op.length === 1) {
      if (Array.isArray(container)) {
        throw new Error(`${where}[${o}]: removes an element of an array`);
      }
      delete (container as Record<string, unknown>)[key];
    } else if (Array.isArray(container)) {
      if (typeof key !== 'number' || key > container.length) {
        throw new Error(
          `${where}[${o}]: ${JSON.stringify(key)} is not an index up to the array's length`,
        );
      }
      container[key] = op[1];
    } else {
      // An own data property even for `__proto__`, whose assignment would set the prototype.
      Object.defineProperty(container, key, {
        value: op[1],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return target;
}
