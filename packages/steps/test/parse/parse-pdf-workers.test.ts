import { createRequire, syncBuiltinESMExports } from 'node:module';
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { closePdfWorkers } from '../../src/parse/formats/pdf/pdf-worker-pool.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { makeReportPdf } from '../fixtures/parse/make-pdf.ts';

// Counts the worker threads started from here on: `import { Worker } from 'node:worker_threads'`
// in the pool sees the counting class once the builtin's exports are synced.
const threads = createRequire(import.meta.url)('node:worker_threads') as {
  Worker: typeof import('node:worker_threads').Worker;
};
const Original = threads.Worker;
let started = 0;
threads.Worker = class CountedWorker extends Original {
  constructor(...args: ConstructorParameters<typeof Original>) {
    super(...args);
    started++;
  }
};
syncBuiltinESMExports();

afterAll(async () => {
  await closePdfWorkers();
  threads.Worker = Original;
  syncBuiltinESMExports();
});

describe('pdfWorkers: the caller decides whether a long PDF uses worker threads', {
  timeout: 120_000,
}, () => {
  it("reads on this thread with 'never' and on workers too with 'always', the same output", async () => {
    const { bytes } = await makeReportPdf({ pages: 60 });
    const never = await parseDocument(bytes, { fileName: 'long.pdf', pdfWorkers: 'never' });
    expect(started).toBe(0);
    const always = await parseDocument(bytes, { fileName: 'long.pdf', pdfWorkers: 'always' });
    // One worker per further core (CI and this machine have two).
    if (availableParallelism() >= 2) expect(started).toBeGreaterThanOrEqual(1);
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
