import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { runPriorityDemo } from '../src/main.ts';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

it('an urgent run at priority 5 overtakes a queued batch at priority 90', async () => {
  const db = join(scratchDir('docflow-priority-'), 'priority.db');
  const lines: string[] = [];
  const { order, completedBeforeUrgent } = await runPriorityDemo(db, {
    batchSize: 12,
    log: (l) => lines.push(l),
  });
  expect(order).toHaveLength(13);
  // The urgent run waits at most for the one batch step already running when it arrived: at
  // most one more batch run completes before it (and usually none has completed yet).
  expect(order.findIndex((r) => r.label === 'URGENT')).toBeLessThanOrEqual(
    completedBeforeUrgent + 1,
  );
  expect(order.findIndex((r) => r.label === 'URGENT')).toBeLessThan(12);
  // Within a priority, FIFO: the batch completes in submission order.
  const batch = order.filter((r) => r.label !== 'URGENT');
  expect(batch.map((r) => r.label)).toEqual(
    Array.from({ length: 12 }, (_, i) => `batch #${i + 1}`),
  );
  expect(batch.every((r) => r.priority === 90)).toBe(true);
  expect(lines[0]).toMatch(/12 runs at priority 90/);
});
