import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PDFJS = fileURLToPath(new URL('../../../../src/parse/formats/pdf/pdfjs.ts', import.meta.url));

describe('loadPdfJs', () => {
  it('leaves the builtins that pdf.js polyfills native (push, JSON)', { timeout: 30_000 }, () => {
    // A fresh process: builtins are per process, and other test files load pdf.js too.
    const script = `
      const natives = [Array.prototype.push, JSON.parse, JSON.stringify];
      const { loadPdfJs } = await import(${JSON.stringify(PDFJS)});
      const pdfjs = await loadPdfJs();
      const doc = await pdfjs.getDocument({ data: new Uint8Array(0) }).promise.catch(() => null);
      const now = [Array.prototype.push, JSON.parse, JSON.stringify];
      console.log(JSON.stringify({ native: now.map((f, i) => f === natives[i]), worker: !!globalThis.pdfjsWorker, doc }));
    `;
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(out.trim().split('\n').pop() ?? '')).toEqual({
      native: [true, true, true],
      worker: true,
      doc: null,
    });
  });
});
