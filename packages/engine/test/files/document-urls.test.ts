/**
 * Document URLs (a run's `file: { url }`) are fetched under the `document` URL policy (issue 21):
 * loopback and private addresses refused unless the engine opts in, every redirect hop checked,
 * the body streamed and dropped at the download limit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, defineStep, type Engine, type EngineOptions } from '@docflow/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const hits: string[] = [];
let sentBytes = 0;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/invoice.txt') {
      res.end('Invoice INV-7 total 42.00');
    } else if (req.url?.startsWith('/redirect?to=')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) });
      res.end();
    } else if (req.url === '/endless') {
      // 300 MB announced by nothing (chunked): written while the client keeps reading.
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const write = () => {
        while (sentBytes < 300 * 1024 * 1024 && !res.destroyed) {
          sentBytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
  hits.length = 0;
});

const parse = defineStep({ type: 'PARSE', execute: async () => ({ output: { ok: true } }) });

async function parseRunOf(url: string, options: Pick<EngineOptions, 'downloads'> = {}) {
  engine = createEngine({ steps: [parse], ...options });
  await engine.start();
  return engine.parseRuns.create({ file: { url } });
}

describe('document URLs under the document URL policy', () => {
  it('refuses the engine host by default, without sending a request', async () => {
    for (const url of [
      `${base}/invoice.txt`,
      `${base.replace('127.0.0.1', 'localhost')}/invoice.txt`,
    ]) {
      const run = await parseRunOf(url);
      expect(run).toMatchObject({ status: 'FAILED', failureReason: 'UNABLE_TO_DOWNLOAD_FILE' });
      expect(run.failureMessage).toMatch(/refused by the document URL policy: .*loopback/);
      await engine?.stop();
    }
    expect(hits).toEqual([]);
  });

  it('reads from loopback when the engine opts in', async () => {
    const run = await parseRunOf(`${base}/invoice.txt`, {
      downloads: { urlPolicy: { allowLoopback: true } },
    });
    expect(run.status).not.toBe('FAILED');
    expect(run.file?.name).toBe('invoice.txt');
  });

  it.each([
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', /metadata|link-local/],
    ['a private network', 'http://10.0.0.7/internal', /private/],
  ])('checks every redirect hop: a redirect to %s is refused', async (_, target, reason) => {
    const run = await parseRunOf(`${base}/redirect?to=${encodeURIComponent(target)}`, {
      downloads: { urlPolicy: { allowLoopback: true } },
    });
    expect(run).toMatchObject({ status: 'FAILED', failureReason: 'UNABLE_TO_DOWNLOAD_FILE' });
    expect(run.failureMessage).toMatch(reason);
    expect(run.failureMessage).toContain('a redirect from');
  });

  it('streams the body up to the download limit and drops the connection there', async () => {
    sentBytes = 0;
    const run = await parseRunOf(`${base}/endless`, {
      downloads: { urlPolicy: { allowLoopback: true }, maxBytes: 1024 * 1024 },
    });
    expect(run).toMatchObject({ status: 'FAILED', failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(run.failureMessage).toMatch(/larger than 1,048,576 bytes/);
    // The server stopped well before its 300 MB: what socket buffers held past the limit.
    await new Promise((r) => setTimeout(r, 100));
    expect(sentBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
