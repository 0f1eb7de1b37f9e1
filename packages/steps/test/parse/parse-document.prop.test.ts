import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';

describe('parseDocument laws', () => {
  it('never rejects: any bytes give a ParseRunOutput or a failure value', async () => {
    const text = fc.string({ maxLength: 300 }).map((s) => new TextEncoder().encode(s));
    const csvish = fc
      .array(fc.array(fc.stringMatching(/^[a-z0-9 "]{0,6}$/), { minLength: 1, maxLength: 4 }), {
        maxLength: 6,
      })
      .map((rows) => new TextEncoder().encode(rows.map((row) => row.join(',')).join('\n')));
    const htmlish = fc
      .array(
        fc.constantFrom('<p>', '</p>', '<table>', '<tr>', '<td>', 'x', '<h1>', '<li>', '<img>'),
        {
          maxLength: 30,
        },
      )
      .map((parts) => new TextEncoder().encode(`<html>${parts.join('')}`));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 300 }), text, csvish, htmlish),
        async (bytes) => {
          const result = await parseDocument(bytes);
          if (result.ok) {
            for (const chunk of result.output.chunks) {
              expect(chunk.object).toBe('chunk');
              for (const block of chunk.blocks) expect(block.id).toMatch(/^blk_\d+$/);
            }
          } else {
            expect(result.failureMessage.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
