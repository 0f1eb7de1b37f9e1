import { createRequire, syncBuiltinESMExports } from 'node:module';
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { closePdfWorkers } from '../../src/parse/formats/pdf/pdf-worker-pool.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { makeReportPdf } from '../fixtures/parse/make-pdf.ts';

// Counts the reader processes started from here on: `import { fork } from 'node:child_process'`
// in the pool sees the counting function once the builtin's exports are synced.
const children = createRequire(import.meta.url)('node:child_process') as {
  fork: typeof import('node:child_process').fork;
};
const original = children.fork;
let started = 0;
children.fork = ((...args: Parameters<typeof original>) => {
  started++;
  return original(...args);
}) as typeof original;
syncBuiltinESMExports();

afterAll(async () => {
  await closePdfWorkers();
  children.fork = original;
  syncBuiltinESMExports();
});

describe('pdfWorkers: the caller decides whether a long PDF uses further reader processes', {
  timeout: 120_000,
}, () => {
  it("reads in one reader process with 'never' and in further ones too with 'always', the same output", async () => {
    const { bytes } = await makeReportPdf({ pages: 60 });
    const never = await parseDocument(bytes, { fileName: 'long.pdf', pdfWorkers: 'never' });
    expect(started).toBe(1);
    const always = await parseDocument(bytes, { fileName: 'long.pdf', pdfWorkers: 'always' });
    // The first reader again (pooled), and one per further core (CI and this machine have two).
    if (availableParallelism() >= 2) expect(started).toBeGreaterThanOrEqual(2);
    if (!never.ok || !always.ok) throw new Error('parse failed');
    expect(always.output.chunks.map((c) => c.content)).toEqual(
      never.output.chunks.map((c) => c.content),
    );
  });

  it('rejects an unknown value', async () => {
    const { bytes } = await makeReportPdf({ pages: 1 });
    const result = await parseDocument(bytes, { pdfWorkers: 'sometimes' as never });
    expect(result).toMatchObject({ ok: false, failureReason: 'INVALID_CONFIG_OPTIONS' });
  });
});
