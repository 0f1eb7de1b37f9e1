/**
 * Documents that expand past what their size can honestly need, or lie about it (issue 21): each
 * is refused through the limits (counted while inflating), never by a crash of the process.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { docxOf, honestBombDocx, paragraph } from '../fixtures/parse/make-bomb-docx.ts';

describe('ZIP containers are measured by inflating them, never by their headers', {
  timeout: 120_000,
}, () => {
  it('a DOCX whose document.xml honestly expands to 450 MiB fails with FILE_SIZE_TOO_LARGE', async () => {
    const bytes = await honestBombDocx(450);
    // A few hundred KiB on disk: the attack killed the process at 4.8 GB.
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const result = await parseDocument(bytes, { fileName: 'bomb.docx' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(
      /The DOCX container expands to more than [\d.]+ MiB \([\d.]+ MiB counted when reading stopped\) from a file of/,
    );
  });

  it('the limit follows the size: a small file may not expand as far as a large one', async () => {
    const body = paragraph('x'.repeat(100)).repeat(20_000); // about 2.4 MiB of XML
    const bytes = docxOf(body);
    expect((await parseDocument(bytes)).ok).toBe(true);
    const tight = await parseDocument(bytes, {
      limits: { expansionRatio: 10, expansionAllowanceBytes: 64 * 1024 },
    });
    expect(tight).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
  });

  it.each([
    ['claims 1 TiB in a ZIP64 field', 2 ** 40],
    ['claims 10 bytes in a ZIP64 field', 10],
  ])(
    'a DOCX whose directory %s fails with CORRUPT_FILE before any parser trusts it',
    async (_, declared) => {
      const bytes = docxOf(paragraph('Invoice INV-1, total 10.00').repeat(5_000), declared);
      const result = await parseDocument(bytes);
      expect(result).toMatchObject({ ok: false, failureReason: 'CORRUPT_FILE' });
      expect(!result.ok && result.failureMessage).toMatch(
        new RegExp(
          `its directory says word/document\\.xml holds ${declared} bytes, its data inflates to \\d+`,
        ),
      );
    },
  );
});
