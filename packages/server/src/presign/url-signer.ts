import { createHmac, timingSafeEqual } from 'node:crypto';

/** Presigned file and parse-output URLs live 15 minutes (the interface's Limits). */
export const PRESIGNED_URL_TTL_MS = 15 * 60_000;

/** Why a presigned URL is refused. */
export type PresignedCheck = 'ok' | 'invalid' | 'expired';

/** Signs server paths with an expiry, and checks them when they come back. */
export interface UrlSigner {
  /** `path?expires=<unix s>&signature=<hex>`. */
  sign(path: string, expiresAt: Date): string;
  /** Checks the `expires` and `signature` query values that came with `path`. */
  check(path: string, expires: unknown, signature: unknown): PresignedCheck;
}

/**
 * HMAC-SHA-256 over `<path>\n<expires>` with the server's secret: a URL is good for exactly the
 * path it was made for until it expires, and a changed path, expiry or signature is refused.
 *
 * @example
 * const signer = createUrlSigner(secret, () => Date.now());
 * const url = origin + signer.sign('/presigned/files/ws_1/file_1', new Date(Date.now() + 900_000));
 */
export function createUrlSigner(secret: Uint8Array, nowMs: () => number = Date.now): UrlSigner {
  const mac = (path: string, expires: string) =>
    createHmac('sha256', secret).update(`${path}\n${expires}`).digest();
  return {
    sign(path, expiresAt) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      return `${path}?expires=${expires}&signature=${mac(path, expires).toString('hex')}`;
    },
    check(path, expires, signature) {
      if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
      if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
      if (!timingSafeEqual(Buffer.from(signature, 'hex'), mac(path, expires))) return 'invalid';
      return Number(expires) * 1000 < nowMs() ? 'expired' : 'ok';
    },
  };
}
