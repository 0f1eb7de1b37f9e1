import type { ValidationIssue } from '../errors.ts';
import { appendPath } from './ajv-issues.ts';

/** Bounds of what a public method takes as input (before any schema sees it). */
export const JSON_INPUT_LIMITS = {
  /** Objects and arrays nested deeper than this are refused (100,000 levels broke the stack). */
  maxDepth: 100,
  /** Characters of strings and keys, plus 8 per other value, across one argument. */
  maxSize: 16 * 1024 * 1024,
} as const;

/**
 * Names that are never keys of input: assigned to an object, `__proto__` replaces its prototype,
 * and `constructor` or `prototype` shadow what code reading the object expects.
 */
export const RESERVED_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Values a method takes as they are: bytes of an upload, an abort signal. */
export type OpaqueValue = (value: object, key: string, depth: number) => boolean;

/** Options of {@link jsonInputIssues}. */
export interface JsonInputOptions {
  /** Values that are not JSON but taken as they are where this says so. */
  readonly opaque?: OpaqueValue;
  readonly maxDepth?: number;
  readonly maxSize?: number;
}

function typeName(value: object): string {
  if (value instanceof Date) return 'a Date (give an ISO 8601 string)';
  if (value instanceof Map) return 'a Map (give an object)';
  if (value instanceof Set) return 'a Set (give an array)';
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return 'binary data';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)
    ?.constructor?.name;
  return name ? `an instance of ${name}` : 'an object with a prototype';
}

/**
 * An object literal, `Object.create(null)`, or a dictionary over an empty null-prototype object
 * (what `node:querystring` parses to).
 */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Reflect.ownKeys(proto).length === 0;
}

/** One value still to visit; `exit` marks leaving a container (for cycle detection). */
type Frame =
  | {
      readonly exit: false;
      readonly value: unknown;
      readonly path: string;
      readonly key: string;
      readonly depth: number;
      readonly inArray: boolean;
    }
  | { readonly exit: true; readonly value: object };

/**
 * What keeps `value` from being JSON as a public method takes it, each issue at its path: a
 * cycle, nesting deeper than `maxDepth`, more than `maxSize`, a value JSON has no form for
 * (function, symbol, BigInt, NaN, Infinity, undefined in an array, Date, Map, Set, class
 * instances) or a reserved name as a key. Walks without recursion, so no depth breaks it; shared
 * (acyclic) references are fine. Undefined object properties are absent keys (optional fields).
 */
export function jsonInputIssues(
  value: unknown,
  root: string,
  options: JsonInputOptions = {},
): ValidationIssue[] {
  const maxDepth = options.maxDepth ?? JSON_INPUT_LIMITS.maxDepth;
  const maxSize = options.maxSize ?? JSON_INPUT_LIMITS.maxSize;
  const issues: ValidationIssue[] = [];
  const open = new Map<object, string>();
  const stack: Frame[] = [{ exit: false, value, path: root, key: '', depth: 0, inArray: false }];
  let size = 0;
  const refuse = (code: string, path: string, message: string) =>
    issues.push({ code, path, message });
  while (stack.length > 0 && issues.length < 20) {
    const frame = stack.pop() as Frame;
    if (frame.exit) {
      open.delete(frame.value);
      continue;
    }
    const { value: v, path, depth } = frame;
    switch (typeof v) {
      case 'string':
        size += v.length + 2;
        break;
      case 'number':
        if (!Number.isFinite(v)) refuse('NOT_JSON', path, `is ${v}: JSON has finite numbers only`);
        size += 8;
        break;
      case 'boolean':
        size += 5;
        break;
      case 'undefined':
        if (frame.inArray) refuse('NOT_JSON', path, 'is undefined: use null in an array');
        break;
      case 'bigint':
        refuse('NOT_JSON', path, 'is a BigInt: give a number or a string');
        break;
      case 'function':
        refuse('NOT_JSON', path, 'is a function: JSON has no functions');
        break;
      case 'symbol':
        refuse('NOT_JSON', path, 'is a symbol: JSON has no symbols');
        break;
      case 'object': {
        if (v === null) {
          size += 4;
          break;
        }
        if (options.opaque?.(v, frame.key, depth)) break;
        const seenAt = open.get(v);
        if (seenAt !== undefined) {
          refuse('CYCLE', path, `refers back to ${seenAt === '' ? 'the input itself' : seenAt}`);
          break;
        }
        if (depth >= maxDepth) {
          refuse('TOO_DEEP', path, `nests more than ${maxDepth} levels of objects and arrays`);
          break;
        }
        const array = Array.isArray(v);
        if (!array && !isPlainObject(v)) {
          refuse('NOT_JSON', path, `is ${typeName(v)}: JSON has none`);
          break;
        }
        open.set(v, path);
        stack.push({ exit: true, value: v });
        size += 2;
        if (array) {
          for (let i = v.length - 1; i >= 0; i--) {
            stack.push({
              exit: false,
              value: v[i],
              path: appendPath(path, i),
              key: String(i),
              depth: depth + 1,
              inArray: true,
            });
          }
        } else {
          const keys = Object.keys(v);
          for (let i = keys.length - 1; i >= 0; i--) {
            const key = keys[i] as string;
            const at = appendPath(path, key);
            size += key.length + 3;
            if (RESERVED_NAMES.includes(key)) {
              refuse('RESERVED_NAME', at, `${key} is not allowed as a key`);
              continue;
            }
            stack.push({
              exit: false,
              value: (v as Record<string, unknown>)[key],
              path: at,
              key,
              depth: depth + 1,
              inArray: false,
            });
          }
        }
        break;
      }
    }
    if (size > maxSize) {
      refuse('TOO_LARGE', root, `is larger than ${maxSize} characters of JSON`);
      break;
    }
  }
  return issues;
}

/** Bytes of an upload and abort signals of options are taken as they are; nothing else. */
const publicOpaque: OpaqueValue = (value, key, depth) =>
  (key === 'signal' && value instanceof AbortSignal) ||
  (key === 'data' && depth === 1 && (value instanceof Uint8Array || value instanceof ArrayBuffer));

/**
 * The issues of a public method's arguments as JSON ({@link jsonInputIssues} of each, paths
 * relative to the argument; the bytes of `files.upload({ data })` and `signal` options pass).
 * Upload data given as a string is bytes too: it is not counted against the size bound.
 */
export function publicArgumentIssues(args: readonly unknown[]): ValidationIssue[] {
  return args.flatMap((arg) =>
    jsonInputIssues(arg, '', {
      opaque: publicOpaque,
      ...(typeof arg === 'object' &&
      arg !== null &&
      typeof (arg as { data?: unknown }).data === 'string'
        ? { maxSize: JSON_INPUT_LIMITS.maxSize + (arg as { data: string }).data.length + 2 }
        : {}),
    }),
  );
}
