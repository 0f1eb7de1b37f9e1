import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StorageAdapter } from '@docflow/storage';
import { systemClock } from '../../src/clock.ts';
import type { EngineContext } from '../../src/internal/engine-context.ts';

export function testContext(storage: StorageAdapter): EngineContext {
  return {
    storage,
    clock: systemClock,
    newId: (prefix) => `${prefix}${randomBytes(10).toString('hex')}`,
    nowIso: () => new Date().toISOString(),
  };
}

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  readonly n: number;
  readonly method: string;
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
  readonly receivedAtMs: number;
}

/** What the receiver does with request number `n` (1-based, per receiver). */
export type Reply =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly delayMs?: number;
    }
  | 'hang'
  | 'destroy';

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with a scripted reply per request. */
export async function startReceiver(
  reply: (request: ReceivedRequest) => Reply = () => ({ status: 200 }),
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = {
        n: requests.length + 1,
        method: req.method ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        receivedAtMs: Date.now(),
      };
      requests.push(request);
      const r = reply(request);
      if (r === 'hang') {
        hanging.add(res);
        return;
      }
      if (r === 'destroy') {
        req.socket.destroy();
        return;
      }
      const respond = () => {
        res.writeHead(r.status, r.headers ?? {});
        res.end('ok');
      };
      if (r.delayMs === undefined) respond();
      else {
        hanging.add(res);
        setTimeout(respond, r.delayMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
