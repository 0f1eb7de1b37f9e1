import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { StorageAdapter } from '@docflow/storage';

/**
 * Run secrets at rest: AES-256-GCM under the engine's `secretKey`. Without a configured key the
 * engine uses a random per-process key, so secrets of runs resumed after a restart are gone
 * (executors then see none); configure `secretKey` for durable secrets (docs/decisions/0003).
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secretKey: string | Uint8Array | undefined) {
    this.#key =
      secretKey === undefined
        ? randomBytes(32)
        : createHash('sha256')
            .update(typeof secretKey === 'string' ? secretKey : Buffer.from(secretKey))
            .digest();
  }

  seal(secrets: Readonly<Record<string, string>>): Uint8Array {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** The secrets, or an empty object when they were sealed under another key. */
  open(sealed: Uint8Array): Readonly<Record<string, string>> {
    try {
      const buf = Buffer.from(sealed);
      const decipher = createDecipheriv('aes-256-gcm', this.#key, buf.subarray(0, 12));
      decipher.setAuthTag(buf.subarray(12, 28));
      const text = Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString(
        'utf8',
      );
      return JSON.parse(text) as Record<string, string>;
    } catch {
      return {};
    }
  }

  /** Seals a run's secrets into the blob store; returns the blob key the run keeps. */
  async store(
    storage: StorageAdapter,
    runId: string,
    secrets: Readonly<Record<string, string>>,
  ): Promise<string> {
    const key = `secrets/${runId}`;
    await storage.blobs.put(key, this.seal(secrets));
    return key;
  }

  /** A run's secrets from the blob store (none without a key, or when they are gone). */
  async load(
    storage: StorageAdapter,
    ref: string | undefined,
  ): Promise<Readonly<Record<string, string>>> {
    if (ref === undefined) return {};
    const sealed = await storage.blobs.get(ref);
    return sealed ? this.open(sealed) : {};
  }
}
