import { randomBytes } from 'node:crypto';

/** A new id of a registry record: `prefix` and 20 random base62 characters. */
export function newRecordId(prefix: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(20);
  let out = prefix;
  for (const byte of bytes) out += alphabet[byte % 62];
  return out;
}
