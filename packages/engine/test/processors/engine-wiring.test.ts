import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/create-engine.ts';
import { fakeStep } from '../helpers.ts';

describe('engine wiring of the processor resources', () => {
  it('exposes the three services and checks workflow references against them', async () => {
    const engine = createEngine({ steps: [fakeStep('PARSE'), fakeStep('CLASSIFY')] });
    await engine.start();
    const events: string[] = [];
    engine.on('*', (e) => {
      events.push(e.eventType);
    });
    const cl = await engine.classifiers.create({
      name: 'Types',
      config: {
        classifications: [
          { id: 'cls_invoice', type: 'invoice' },
          { id: 'cls_other', type: 'other' },
        ],
      },
    });
    await engine.classifiers.publish(cl.id, { releaseType: 'major' });
    const steps = (version: string, route: string) =>
      [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
        {
          name: 'classify',
          type: 'CLASSIFY',
          config: { classifier: { id: cl.id, version } },
          next: [{ step: 'review', classificationId: route }],
        },
        { name: 'review', type: 'HUMAN_REVIEW' },
      ] as never;
    await expect(
      engine.workflows.create({ name: 'bad', steps: steps('2.0', 'cls_invoice') }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      engine.workflows.create({ name: 'bad', steps: steps('1.0', 'cls_receipt') }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const wf = await engine.workflows.create({ name: 'ok', steps: steps('1.0', 'cls_invoice') });
    expect(wf.id).toMatch(/^workflow_/);
    expect(events).toEqual([
      'classifier.created',
      'classifier.version.published',
      'workflow.created',
    ]);
    await engine.stop();
  });
});
