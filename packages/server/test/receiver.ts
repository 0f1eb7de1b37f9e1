import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a webhook receiver got. */
export interface Received {
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
}

/** A real HTTP receiver on loopback; `next(filter)` resolves with the first matching request. */
export async function startReceiver(): Promise<{
  url: string;
  next(filter?: (r: Received) => boolean): Promise<Received>;
  close(): Promise<void>;
}> {
  const seen: Received[] = [];
  const waiters: { filter: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      seen.push(received);
      for (const w of [...waiters]) {
        if (w.filter(received)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received);
        }
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    next(filter = () => true) {
      const found = seen.find(filter);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ filter, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
