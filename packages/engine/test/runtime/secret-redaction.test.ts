/**
 * A run's secret values never reach what is stored or sent (issue 21): an executor that quotes
 * its key in an error or an output leaks it neither into failureMessage, events, the stored run,
 * nor into outputs.
 */
import { type EngineEvent, StepError } from '@docflow/engine';
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { steps } from '../helpers.ts';

const SECRET = 'sk-live-4f9a8b7c6d5e';

let engine: TestEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

/** Everything of the run that is stored or sent, as text. */
async function everything(e: TestEngine, runId: string, heard: EngineEvent[]): Promise<string> {
  return JSON.stringify([
    await e.workflowRuns.get(runId),
    await e.storage.getRun(runId),
    await e.storage.listRunEvents(runId),
    heard,
  ]);
}

describe('secret values are redacted before anything is stored or sent', () => {
  it('from a failure message, a retry message and the events', async () => {
    let calls = 0;
    engine = await createTestEngine({
      retry: { maxAttempts: 2, initialIntervalMs: 0 },
      steps: [
        fakeStep('PARSE', (_input, ctx) => {
          calls++;
          throw new StepError(`invalid key ${ctx.secrets.apiKey} (attempt ${calls})`, {
            retryable: calls === 1,
          });
        }),
      ],
    });
    const heard: EngineEvent[] = [];
    engine.on('*', (event) => {
      heard.push(event);
    });
    const run = await engine.run(
      steps([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
      { secrets: { apiKey: SECRET, short: 'ab' } },
    );
    expect(calls).toBe(2);
    expect(run.status).toBe('FAILED');
    expect(run.failureMessage).toContain('invalid key [REDACTED] (attempt 2)');
    const all = await everything(engine, run.id, heard);
    expect(all).not.toContain(SECRET);
  });

  it('from an output, wherever the value sits in it', async () => {
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', (_input, ctx) => ({
          echo: { header: `Bearer ${ctx.secrets.apiKey}`, list: [ctx.secrets.apiKey] },
        })),
      ],
    });
    const heard: EngineEvent[] = [];
    engine.on('*', (event) => {
      heard.push(event);
    });
    const run = await engine.run(
      steps([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
      { secrets: { apiKey: SECRET } },
    );
    expect(run.status).toBe('PROCESSED');
    expect(JSON.stringify(run.stepRuns[1]?.result)).toContain('Bearer [REDACTED]');
    expect(await everything(engine, run.id, heard)).not.toContain(SECRET);
  });
});
