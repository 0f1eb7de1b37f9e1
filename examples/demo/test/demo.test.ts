import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runDemo } from '../src/main.ts';

it('runs the README demo end to end on SQLite', async () => {
  const lines: string[] = [];
  const db = join(mkdtempSync(join(tmpdir(), 'docflow-demo-')), 'demo.db');
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
