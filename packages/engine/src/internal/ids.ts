import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const POOL_SIZE = 20 * 512;
const pool = new Uint8Array(POOL_SIZE);
let offset = POOL_SIZE;

/**
 * A new resource id: SPEC.md's prefix followed by 20 random base-36 characters. IDs are opaque;
 * callers must not parse them. Random bytes come from a pooled buffer refilled 512 ids at a
 * time: a run mints several ids per transition, and one system call per id showed in profiles.
 */
export function newId(prefix: string): string {
  if (offset + 20 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  let out = prefix;
  for (let i = 0; i < 20; i++) out += ALPHABET[(pool[offset + i] as number) % 36];
  offset += 20;
  return out;
}
