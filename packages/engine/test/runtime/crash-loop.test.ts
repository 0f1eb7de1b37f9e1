/**
 * Crash-loop protection (issue 21): an executor that kills its process (a document that makes
 * the parser run out of memory) does not kill every restart. Each execution is recorded before
 * the executor starts; past three deaths the step fails with a clear reason.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');

/** Runs the child to its end: what it printed, and the signal that ended it. */
async function child(args: readonly string[]): Promise<{ out: string; signal: string | null }> {
  const proc = spawn(
    process.execPath,
    ['--import', tsxLoader, join(import.meta.dirname, '../fixtures/crash-loop-child.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('settled ')) proc.kill('SIGKILL');
  });
  const signal = await new Promise<string | null>((resolve) =>
    proc.once('close', (_code, sig) => resolve(sig)),
  );
  return { out, signal };
}

describe('a step whose executions keep dying with their process', () => {
  it('fails after three deaths instead of killing every restart (workflow step and parse run)', async () => {
    const path = join(tempDir(), 'crash-loop.db');
    const created = await child([path, 'create']);
    const [, runId, parseId] = /runs (\S+) (\S+)/.exec(created.out) ?? [];
    expect(runId && parseId, created.out).toBeTruthy();
    expect(created.signal).toBe('SIGKILL');

    let settled: string | undefined;
    let restarts = 0;
    while (settled === undefined && restarts < 6) {
      restarts++;
      const { out } = await child([path, runId as string, parseId as string]);
      settled = /settled (.*)/.exec(out)?.[1];
    }
    // Each run dies in the create process and at two restarts, and the next gives up: three
    // restarts when both runs die in the same ones, up to five when a death comes before the
    // other run was picked up again (which one executes first is up to the scheduler).
    expect(restarts).toBeGreaterThanOrEqual(3);
    expect(restarts).toBeLessThanOrEqual(5);
    const { run, parse } = JSON.parse(settled as string);
    expect(run.status).toBe('FAILED');
    expect(run.failureReason).toBe('INTERNAL_ERROR');
    expect(run.stepRuns[1]).toMatchObject({ status: 'FAILED' });
    expect(run.failureMessage).toMatch(
      /Step parse \(PARSE\) was executing when its process died 3 times/,
    );
    expect(parse).toMatchObject({ status: 'FAILED', failureReason: 'INTERNAL_ERROR' });
    expect(parse.failureMessage).toMatch(
      /This parse run was executing when its process died 3 times/,
    );
  }, 60_000);
});
