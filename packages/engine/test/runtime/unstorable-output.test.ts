/**
 * An output too large to store: `JSON.stringify` of a step's output throws a RangeError past
 * V8's longest string (about 512 million characters, e.g. the parse of a sheet with millions of
 * cells). The step fails at once with that reason, instead of leaving its verdict unwritten,
 * running again and failing later as an execution lost three times.
 */
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { steps } from '../helpers.ts';

let engine: TestEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

/** An output whose JSON text cannot be made, as a string longer than V8's longest. */
function unstorable(): unknown {
  return {
    pages: {
      toJSON() {
        throw new RangeError('Invalid string length');
      },
    },
  };
}

describe('a step output too large to store', () => {
  it('fails the step once, with a reason that says so', async () => {
    let calls = 0;
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', () => {
          calls++;
          return unstorable();
        }),
      ],
    });
    const run = await engine.run(
      steps([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
    );
    expect(run.status).toBe('FAILED');
    expect(run.failureReason).toBe('INTERNAL_ERROR');
    expect(run.failureMessage).toMatch(/output is too large to store/);
    expect(calls).toBe(1);
  });
});
