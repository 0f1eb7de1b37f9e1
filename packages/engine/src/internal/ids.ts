import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A new resource id: SPEC.md's prefix followed by 20 random base-36 characters. IDs are opaque;
 * callers must not parse them.
 */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}${out}`;
}
