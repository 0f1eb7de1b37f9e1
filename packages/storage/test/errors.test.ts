import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StorageErrorCode } from '@docflow/storage';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

describe('error codes', () => {
  it('are all documented in docs/errors/storage.md, and nothing else is', () => {
    const doc = readFileSync(join(here, '..', '..', '..', 'docs', 'errors', 'storage.md'), 'utf8');
    const documented = [...doc.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.values(StorageErrorCode).sort());
  });
});
