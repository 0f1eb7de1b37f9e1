import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_ERRORS } from '@docflow/server';
import { expect, it } from 'vitest';
import { serverRoutes } from '../src/routes/server-routes.ts';

const docs = join(import.meta.dirname, '..', '..', '..', 'docs');

it('documents every error code with its status in docs/errors/server.md, and nothing else', () => {
  const doc = readFileSync(join(docs, 'errors', 'server.md'), 'utf8');
  const documented = Object.fromEntries(
    [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]),
  );
  expect(documented).toEqual(
    Object.fromEntries(Object.entries(API_ERRORS).map(([code, spec]) => [code, spec.status])),
  );
});

it('lists every route, with the SDK method it serves, in docs/http-api.md, and nothing else', () => {
  const doc = readFileSync(join(docs, 'http-api.md'), 'utf8');
  const rows = [...doc.matchAll(/^\| `(GET|POST|DELETE) (\S+)` \| (?:`([A-Za-z.]+)`)? *\|/gm)].map(
    (m) => `${m[1]} ${m[2]} ${m[3] ?? ''}`.trim(),
  );
  const sdkMethod = (r: (typeof serverRoutes)[number]) =>
    r.public || r.extension || r.notInSdk ? '' : r.operationId;
  const routes = serverRoutes.map((r) => `${r.method} ${r.path} ${sdkMethod(r)}`.trim());
  expect(rows.sort()).toEqual(routes.sort());
});
