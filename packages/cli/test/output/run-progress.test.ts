import { expect, it } from 'vitest';
import { createRunProgress } from '../../src/output/run-progress.ts';
import { fakeContext } from './fake-terminal.ts';

it('draws a bar per file on a terminal, with steps done and the last step', () => {
  const { context, output } = fakeContext(true);
  const runs = new Map([
    ['run_a', 'a.pdf'],
    ['run_b', 'bb.pdf'],
  ]);
  const progress = createRunProgress(context, runs, 4, true);
  progress.step('run_a', 'parse');
  progress.step('run_a', 'extract');
  progress.done('run_b', 'FAILED');
  progress.stop();
  const text = output();
  expect(text).toMatch(/a\.pdf .* 2\/4 steps {2}extract/);
  expect(text).toMatch(/bb\.pdf .* 4\/4 steps {2}FAILED/);
});

it("shows the page a PARSE step has reached on its run's bar, for documents of several pages", () => {
  const { context, output } = fakeContext(true);
  const progress = createRunProgress(context, new Map([['run_a', 'report.pdf']]), 3, true);
  progress.pages('run_a', 0, 1);
  progress.pages('run_a', 37, 200);
  progress.stop();
  const text = output();
  expect(text).toMatch(/report\.pdf .* 0\/3 steps {2}parse: page 37 of 200/);
  expect(text).not.toContain('of 1');
});

it('prints one line per finished run when not a terminal, and nothing when disabled', () => {
  const pipe = fakeContext(false);
  const progress = createRunProgress(pipe.context, new Map([['run_a', 'a.pdf']]), 3, true);
  progress.step('run_a', 'parse');
  progress.pages('run_a', 5, 10);
  progress.done('run_a', 'PROCESSED');
  progress.stop();
  expect(pipe.output()).toBe('a.pdf: PROCESSED\n');
  const off = fakeContext(true);
  const silent = createRunProgress(off.context, new Map([['run_a', 'a.pdf']]), 3, false);
  silent.done('run_a', 'PROCESSED');
  silent.stop();
  expect(off.output()).toBe('');
});
