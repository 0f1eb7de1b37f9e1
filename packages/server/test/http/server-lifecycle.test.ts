import { Writable } from 'node:stream';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatedParseSteps, startTestServer, type TestServer } from '../helpers.ts';

let t: TestServer;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  t = await startTestServer({ logger: { level: 'info', stream } });
});
afterAll(async () => {
  await t.close();
});

/** A path with its parameters blanked: `/files/{id}` and `/files/:id|:fileId` both give `/files/{}`. */
const shape = (path: string) =>
  path.replace(/\{[A-Za-z]+\}/g, '{}').replace(/:[A-Za-z]+(\|:[A-Za-z]+)*/g, '{}');

/** The routes Fastify serves, read from Fastify's own route tree (not from the server's table). */
function servedRoutes(): Set<string> {
  const text = t.server.app.printRoutes({ commonPrefix: false });
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + (match[2] as string);
    stack.push(path);
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) {
      out.add(`${method} ${shape(path)}`);
    }
  }
  return out;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document holding every route the server serves, and nothing else', async () => {
    const response = await fetch(`${t.origin}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations))
        documented.add(`${method.toUpperCase()} ${shape(path)}`);
    }
    const served = servedRoutes();
    expect(served.size).toBeGreaterThan(60);
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it('documents request bodies with the schemas that validate them', async () => {
    const document = (await (await fetch(`${t.origin}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { properties?: Record<string, unknown> } }>;
            };
          }
        >
      >;
    };
    const body =
      document.paths['/workflow_runs']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(
      ['file', 'metadata', 'outputs', 'package', 'priority', 'secrets', 'workflow'].sort(),
    );
    expect(
      document.paths['/files/upload']?.post?.requestBody?.content['multipart/form-data'],
    ).toBeDefined();
  });
});

describe('request ids and logs', () => {
  it('returns x-request-id and writes it into the log line of the request', async () => {
    const response = await t.fetch('/files');
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^req_/);
    expect(lines.some((l) => l.requestId === id && l.msg === 'request completed')).toBe(true);
  });
});

describe('close()', () => {
  it('stops accepting connections, finishes the request in flight, then stops the engines', async () => {
    const { steps, started: executing, release } = gatedParseSteps();
    const own = await startTestServer({ steps, limits: { syncTimeoutMs: 30_000 } });
    const client = own.client();
    const file = await client.files.upload(new File(['closing'], 'c.txt'), {});
    const engine = await own.server.engineFor(own.workspaces.a.id);
    const inFlight = client.parse({ file: { id: file.id } });
    await executing;
    let closed = false;
    const closing = own.close().then(() => {
      closed = true;
    });
    // Not listening any more, while the request in flight waits for its run.
    await expect(fetch(`${own.origin}/openapi.json`)).rejects.toThrow();
    expect(closed).toBe(false);
    release();
    expect((await inFlight).status).toBe('PROCESSED');
    await closing;
    await expect(engine.files.list()).rejects.toMatchObject({ code: 'NOT_STARTED' });
  });
});
