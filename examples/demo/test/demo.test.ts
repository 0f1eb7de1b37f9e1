import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { runDemo } from '../src/main.ts';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

it('runs the README demo end to end on SQLite', async () => {
  const lines: string[] = [];
  const db = join(scratchDir('docflow-demo-'), 'demo.db');
  const run = await runDemo(db, (l) => lines.push(l));
  expect(run.status).toBe('PROCESSED');
  const parse = run.stepRuns.find((s) => s.stepType === 'PARSE');
  const parseRun = parse?.result?.parseRun as
    | { output: { chunks: { content: string }[] } }
    | undefined;
  expect(parseRun).toBeDefined();
  expect((parseRun?.output.chunks ?? []).map((c) => c.content).join('\n')).toContain(
    'INV-2026-0042',
  );
  expect(lines.at(-1)).toMatch(/PROCESSED: 2 steps, 1 chunk/);
});
