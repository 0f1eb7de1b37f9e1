/**
 * createPolicyFetch against real HTTP servers on loopback: refusals happen before anything is
 * sent, the address connected to is the one checked (a name only the test's resolver knows),
 * every redirect hop is checked, and bodies stop at their limit with the connection dropped.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { isEngineError } from '../../src/errors.ts';
import { createPolicyFetch, type ResolveHost, urlPolicy } from '../../src/net/index.ts';

interface TestServer {
  readonly port: number;
  readonly requests: IncomingMessage[];
  readonly closed: Promise<{ finished: boolean }>[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const closed: Promise<{ finished: boolean }>[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    closed.push(
      new Promise((resolve) => res.on('close', () => resolve({ finished: res.writableFinished }))),
    );
    handle(req, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, requests, closed };
}

// Names only this resolver knows: a request to them can only connect through the policy's lookup.
const resolve: ResolveHost = async (hostname) => {
  if (hostname === 'service.test' || hostname === 'other.test') {
    return [{ address: '127.0.0.1', family: 4 }];
  }
  if (hostname === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isEngineError(error, 'URL_REFUSED'), String(error)).toBe(true);
  return (error as Error).message;
}

describe('createPolicyFetch', () => {
  test('a loopback URL is refused before anything is sent, unless the policy allows loopback', async () => {
    const server = await serve((_, res) => res.end('ok'));
    const url = `http://127.0.0.1:${server.port}/`;
    const strict = createPolicyFetch({ policy: urlPolicy('workflow'), maxResponseBytes: 1024 });
    expect(await refusal(strict(url))).toMatch(
      /refused by the workflow URL policy: 127\.0\.0\.1 is a loopback address/,
    );
    expect(server.requests).toHaveLength(0);
    const open = createPolicyFetch({
      policy: urlPolicy('workflow', { allowLoopback: true }),
      maxResponseBytes: 1024,
    });
    expect(await (await open(url)).text()).toBe('ok');
  });

  test('a host name is checked at the address the connection resolves and uses', async () => {
    const server = await serve((_, res) => res.end('hello'));
    const strict = createPolicyFetch({
      policy: urlPolicy('workflow'),
      maxResponseBytes: 1024,
      resolve,
    });
    expect(await refusal(strict(`http://service.test:${server.port}/`))).toMatch(
      /service\.test resolves to 127\.0\.0\.1 is a loopback address/,
    );
    expect(await refusal(strict(`http://metadata.test:${server.port}/`))).toMatch(
      /169\.254\.169\.254 is a metadata address/,
    );
    expect(server.requests).toHaveLength(0);
    // `service.test` exists only in this resolver, so this request connected through it.
    const allowed = createPolicyFetch({
      policy: urlPolicy('workflow', { allowHosts: ['service.test'] }),
      maxResponseBytes: 1024,
      resolve,
    });
    expect(await (await allowed(`http://service.test:${server.port}/`)).text()).toBe('hello');
    expect(server.requests).toHaveLength(1);
  });

  test('each redirect hop is checked again: an allowed host redirecting inward is refused at the hop', async () => {
    const inner = await serve((_, res) => res.end('internal secrets'));
    const outer = await serve((req, res) => {
      const to: Record<string, string> = {
        '/to-loopback': `http://127.0.0.1:${inner.port}/`,
        '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam/',
        '/to-name': `http://other.test:${inner.port}/`,
      };
      res.writeHead(302, { location: to[req.url ?? ''] ?? '/' }).end();
    });
    const get = createPolicyFetch({
      policy: urlPolicy('workflow', { allowHosts: ['service.test'] }),
      maxResponseBytes: 1024,
      resolve,
    });
    const base = `http://service.test:${outer.port}`;
    expect(await refusal(get(`${base}/to-loopback`))).toMatch(
      new RegExp(
        `http://127\\.0\\.0\\.1:${inner.port}/ is refused .* loopback address .*a redirect from ${base}/to-loopback`,
      ),
    );
    expect(await refusal(get(`${base}/to-metadata`))).toMatch(
      /169\.254\.169\.254 is a metadata address/,
    );
    expect(await refusal(get(`${base}/to-name`))).toMatch(/other\.test resolves to 127\.0\.0\.1/);
    expect(inner.requests).toHaveLength(0);
  });

  test('followed redirects: at most maxRedirects, POST becomes GET on 302, credentials stay on their origin', async () => {
    const target = await serve((req, res) =>
      res.end(`${req.method} auth=${req.headers.authorization ?? 'none'}`),
    );
    const start = await serve((req, res) => {
      if (req.url === '/loop') res.writeHead(307, { location: '/loop' }).end();
      else res.writeHead(302, { location: `http://127.0.0.1:${target.port}/done` }).end();
    });
    const get = createPolicyFetch({
      policy: urlPolicy('workflow', { allowLoopback: true, maxRedirects: 3 }),
      maxResponseBytes: 1024,
    });
    const response = await get(`http://127.0.0.1:${start.port}/go`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
    });
    expect(await response.text()).toBe('GET auth=none');
    expect(await refusal(get(`http://127.0.0.1:${start.port}/loop`))).toMatch(
      /more than 3 redirects/,
    );
    // redirect: 'manual' hands the 3xx back without following it.
    const manual = await get(`http://127.0.0.1:${start.port}/go`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });

  test('a body past the limit fails the read and the connection is dropped', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const server = await serve((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-length': String(200 * 1024 * 1024) });
        res.write(chunk);
        return;
      }
      // 200 MB streamed without a length: written while the client keeps reading.
      let sent = 0;
      const more = (): void => {
        while (sent < 200 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
    });
    const get = createPolicyFetch({
      policy: urlPolicy('workflow', { allowLoopback: true }),
      maxResponseBytes: 256 * 1024,
    });
    const response = await get(`http://127.0.0.1:${server.port}/stream`);
    const error = await response.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isEngineError(error, 'RESPONSE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toMatch(
      /larger than 262,144 bytes .*the connection was dropped/,
    );
    expect(await server.closed[0]).toEqual({ finished: false });
    const declared = await get(`http://127.0.0.1:${server.port}/declared`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isEngineError(declared, 'RESPONSE_TOO_LARGE')).toBe(true);
    expect((declared as Error).message).toMatch(/Content-Length 209,715,200/);
    expect(await server.closed[1]).toEqual({ finished: false });
  });

  test('a custom fetch gets the same checks, the host resolved just before', async () => {
    const calls: string[] = [];
    const custom = (async (url: string | URL) => {
      calls.push(String(url));
      return new Response('custom');
    }) as typeof fetch;
    const get = createPolicyFetch({
      policy: urlPolicy('workflow'),
      maxResponseBytes: 1024,
      fetch: custom,
      resolve,
    });
    expect(await refusal(get('http://service.test/x'))).toMatch(/resolves to 127\.0\.0\.1/);
    expect(await refusal(get('http://user:pw@example.com/'))).toMatch(/carries credentials/);
    expect(calls).toEqual([]);
  });
});
