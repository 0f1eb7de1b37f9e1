import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineErrorCode, WebhookVerificationErrorCode } from '@docflow/engine';
import { expect, it } from 'vitest';

it('documents every EngineError code in docs/errors/engine.md, and nothing else', () => {
  const doc = readFileSync(
    join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'errors', 'engine.md'),
    'utf8',
  );
  const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  expect(documented.sort()).toEqual(Object.values(EngineErrorCode).sort());
});

it('documents every WebhookVerificationError code in docs/errors/webhooks.md', () => {
  const doc = readFileSync(
    join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'errors', 'webhooks.md'),
    'utf8',
  );
  const section = doc.slice(
    doc.indexOf('## `WebhookVerificationError`'),
    doc.indexOf('## Delivery failures'),
  );
  const documented = [...section.matchAll(/^\| `([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
  expect(documented.sort()).toEqual(Object.values(WebhookVerificationErrorCode).sort());
});
