import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineErrorCode } from '@docflow/engine';
import { expect, it } from 'vitest';

it('documents every EngineError code in docs/errors/engine.md, and nothing else', () => {
  const doc = readFileSync(
    join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'errors', 'engine.md'),
    'utf8',
  );
  const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  expect(documented.sort()).toEqual(Object.values(EngineErrorCode).sort());
});
