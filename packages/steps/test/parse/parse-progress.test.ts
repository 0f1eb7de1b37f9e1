import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS } from '../../src/parse/format-context.ts';
import { openPdfSession } from '../../src/parse/formats/pdf/pdf-session.ts';
import { closePdfWorkers } from '../../src/parse/formats/pdf/pdf-worker-pool.ts';
import { readPages } from '../../src/parse/formats/pdf/read-pages.ts';
import { type ParseProgress, pageProgress } from '../../src/parse/page-progress.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { type ParseStepProgress, parseStep } from '../../src/parse/parse-step.ts';
import { resolveParseConfig } from '../../src/parse/resolve-parse-config.ts';
import { makeReportPdf } from '../fixtures/parse/make-pdf.ts';
import { fakeStep } from './step-context.ts';

afterAll(() => closePdfWorkers());

const counts = (seen: readonly ParseProgress[]) => seen.map((p) => `${p.pagesDone}/${p.pageCount}`);

describe('parse progress', { timeout: 60_000 }, () => {
  it('reports each page of a PDF once, from 0 to the page count', async () => {
    const { bytes } = await makeReportPdf({ pages: 4 });
    const seen: ParseProgress[] = [];
    const result = await parseDocument(bytes, { onProgress: (p) => seen.push(p) });
    expect(result.ok).toBe(true);
    expect(counts(seen)).toEqual(['0/4', '1/4', '2/4', '3/4', '4/4']);
  });

  it('counts the pages that worker threads read, one report each', async () => {
    const { bytes } = await makeReportPdf({ pages: 6 });
    const resolved = resolveParseConfig({});
    if (!resolved.ok) throw new Error('config');
    const seen: ParseProgress[] = [];
    const progress = pageProgress((p) => seen.push(p));
    progress.start(6);
    const context = {
      config: resolved.config,
      limits: DEFAULT_PARSE_LIMITS,
      signal: new AbortController().signal,
      mimeType: 'application/pdf',
      fileName: 'report.pdf',
      pdfWorkers: 'auto' as const,
      progress,
    };
    const session = await openPdfSession(bytes, context);
    try {
      const read = await readPages(bytes, session, [1, 2, 3, 4, 5, 6], context, 1);
      expect(read.threads).toBeGreaterThanOrEqual(1);
    } finally {
      await session.close();
    }
    // One report per page, whichever thread read it: the count rises by one each time.
    expect(counts(seen)).toEqual(['0/6', '1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
  });

  it('says nothing for formats parsed in one go, and survives a listener that throws', async () => {
    const seen: ParseProgress[] = [];
    const text = await parseDocument(new TextEncoder().encode('Total: 12.00 EUR\n'), {
      onProgress: (p) => seen.push(p),
    });
    expect(text.ok).toBe(true);
    expect(seen).toEqual([]);
    const { bytes } = await makeReportPdf({ pages: 2 });
    const pdf = await parseDocument(bytes, {
      onProgress: () => {
        throw new Error('a broken display');
      },
    });
    expect(pdf.ok).toBe(true);
  });

  it('names the run, step run and file in the PARSE step', async () => {
    const { bytes } = await makeReportPdf({ pages: 2 });
    const seen: ParseStepProgress[] = [];
    const { input, context } = fakeStep([{ name: 'report.pdf', data: bytes }]);
    const outcome = await parseStep({ onProgress: (p) => seen.push(p) }).execute(input, context);
    expect('output' in outcome).toBe(true);
    expect(seen.at(-1)).toEqual({
      runId: 'workflow_run_1',
      stepRunId: 'workflow_step_run_1',
      fileId: 'file_1',
      fileName: 'report.pdf',
      pagesDone: 2,
      pageCount: 2,
    });
  });
});
