/**
 * A small HTTP server that serves webhook event bodies at HMAC-signed, expiring URLs, for
 * signed-URL delivery without an object store. It reads the event from the outbox row, so it
 * needs no storage of its own; a URL is
 * `/webhook-payloads/<deliveryId>?expires=<unix s>&nonce=<hex>&signature=<hex>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StorageAdapter } from '@docflow/storage';
import { type Clock, systemClock } from '../clock.ts';
import type { SignedUrlProvider } from './signed-url-provider.ts';

/** Options of {@link createLoopbackBlobServer}. */
export interface LoopbackBlobServerOptions {
  /** Where the outbox lives; the server reads events from it. */
  readonly storage: StorageAdapter;
  /** Key of the URL signatures; default random (URLs then die with the process). */
  readonly secret?: string | Uint8Array | undefined;
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Default 0 (any free port). */
  readonly port?: number | undefined;
  /** Origin written into URLs when receivers reach the server by another name (a proxy). */
  readonly publicOrigin?: string | undefined;
  readonly clock?: Clock | undefined;
}

/** The running server. */
export interface LoopbackBlobServer {
  /** Starts listening; resolves to the origin (`http://127.0.0.1:54321`). Idempotent. */
  listen(): Promise<string>;
  /** Stops accepting connections and closes idle ones. */
  close(): Promise<void>;
  /** The origin while listening. */
  readonly origin: string | undefined;
  /** A signed URL to delivery `deliveryId`'s event, valid until `expiresAt`. */
  signUrl(deliveryId: string, expiresAt: Date): string;
  /** Pass to the dispatcher's `signedUrlProvider`. */
  readonly signedUrlProvider: SignedUrlProvider;
}

const PATH_PREFIX = '/webhook-payloads/';

/**
 * A loopback server for signed-URL webhook payloads.
 *
 * @example
 * const blobs = createLoopbackBlobServer({ storage });
 * await blobs.listen();
 * const dispatcher = createWebhookDispatcher({ storage, signedUrlProvider: blobs.signedUrlProvider });
 */
export function createLoopbackBlobServer(options: LoopbackBlobServerOptions): LoopbackBlobServer {
  const secret = options.secret ?? randomBytes(32);
  const clock = options.clock ?? systemClock;
  let server: Server | undefined;
  let origin: string | undefined;
  let listening: Promise<string> | undefined;

  function signature(deliveryId: string, expires: string, nonce: string): Buffer {
    return createHmac('sha256', secret).update(`${deliveryId}:${expires}:${nonce}`).digest();
  }

  function signUrl(deliveryId: string, expiresAt: Date): string {
    const base = options.publicOrigin ?? origin;
    if (base === undefined) throw new Error('The loopback blob server is not listening');
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    // A nonce makes every URL distinct, so a manual retry never repeats an earlier URL.
    const nonce = randomBytes(8).toString('hex');
    const sig = signature(deliveryId, expires, nonce).toString('hex');
    return `${base}${PATH_PREFIX}${encodeURIComponent(deliveryId)}?expires=${expires}&nonce=${nonce}&signature=${sig}`;
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || !url.pathname.startsWith(PATH_PREFIX)) {
      send(res, 404, { code: 'NOT_FOUND', message: 'No such payload' });
      return;
    }
    const deliveryId = decodeURIComponent(url.pathname.slice(PATH_PREFIX.length));
    const expires = url.searchParams.get('expires') ?? '';
    const given = Buffer.from(url.searchParams.get('signature') ?? '', 'hex');
    const expected = signature(deliveryId, expires, url.searchParams.get('nonce') ?? '');
    if (
      !/^\d+$/.test(expires) ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      send(res, 403, { code: 'INVALID_SIGNATURE', message: 'The URL signature is not valid' });
      return;
    }
    if (Number(expires) * 1000 < clock.now().getTime()) {
      send(res, 403, { code: 'URL_EXPIRED', message: 'The URL has expired' });
      return;
    }
    const delivery = await options.storage.getDelivery(deliveryId);
    if (delivery === undefined) {
      send(res, 404, { code: 'NOT_FOUND', message: 'No such payload' });
      return;
    }
    send(res, 200, (delivery.event as { payload?: unknown }).payload ?? null);
  }

  return {
    get origin() {
      return origin;
    },
    signUrl,
    signedUrlProvider: (_event, context) => signUrl(context.deliveryId, context.expiresAt),
    listen() {
      listening ??= new Promise<string>((resolve, reject) => {
        const s = createServer((req, res) => {
          handle(req, res).catch(() => {
            if (!res.headersSent) send(res, 500, { code: 'INTERNAL_ERROR', message: 'Failed' });
            else res.destroy();
          });
        });
        s.once('error', reject);
        s.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
          const address = s.address() as AddressInfo;
          const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          origin = `http://${host}:${address.port}`;
          server = s;
          resolve(origin);
        });
      });
      return listening;
    },
    async close() {
      const s = server;
      server = undefined;
      origin = undefined;
      listening = undefined;
      if (s === undefined) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeIdleConnections();
      });
    },
  };
}
