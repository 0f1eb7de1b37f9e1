import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProcessorIssueCode } from '../../src/processors/processor-issue-code.ts';

const doc = readFileSync(
  new URL('../../../../docs/errors/processors-resources.md', import.meta.url),
  'utf8',
);

describe('docs/errors/processors-resources.md', () => {
  it('has one row per processor issue code, and no other', () => {
    const rows = [...doc.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual(Object.values(ProcessorIssueCode).sort());
  });
});
