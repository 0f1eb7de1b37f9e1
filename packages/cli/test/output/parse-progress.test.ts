import { expect, it } from 'vitest';
import { createParseProgress } from '../../src/output/parse-progress.ts';
import { fakeContext } from './fake-terminal.ts';

it('draws a page bar on a terminal once a document has several pages, and clears it', () => {
  const { context, output } = fakeContext(true);
  const progress = createParseProgress(context, 'report.pdf', true);
  progress.update({ pagesDone: 0, pageCount: 200 });
  progress.update({ pagesDone: 37, pageCount: 200 });
  progress.stop();
  expect(output()).toMatch(/report\.pdf .* 0\/200 pages/);
  expect(output()).toMatch(/report\.pdf .* 37\/200 pages/);
  // Cleared at the end: the last thing written erases the line.
  expect(output().endsWith('\u001b[2K')).toBe(true);
});

it('draws nothing for a one-page document, off a terminal, or with --no-progress', () => {
  for (const [isTTY, enabled, pageCount] of [
    [true, true, 1],
    [false, true, 200],
    [true, false, 200],
  ] as const) {
    const { context, output } = fakeContext(isTTY);
    const progress = createParseProgress(context, 'a.pdf', enabled);
    progress.update({ pagesDone: 0, pageCount });
    progress.update({ pagesDone: 1, pageCount });
    progress.stop();
    expect(output()).toBe('');
  }
});
