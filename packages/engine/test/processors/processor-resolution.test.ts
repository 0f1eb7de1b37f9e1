import type { JsonObject } from '@docflow/storage';
import { describe, expect, it } from 'vitest';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import {
  createProcessorResolution,
  processorReferencesOf,
} from '../../src/processors/processor-resolution.ts';
import { createProcessorResources } from '../../src/resources/processor-resources.ts';
import { createProcessorsService } from '../../src/resources/processors.ts';
import { recordingContext, VALID_CONFIGS } from './helpers.ts';

async function setup() {
  const rec = await recordingContext();
  const services = {
    extractor: createProcessorsService(rec.ctx, { kind: 'extractor' }),
    classifier: createProcessorsService(rec.ctx, { kind: 'classifier' }),
    splitter: createProcessorsService(rec.ctx, { kind: 'splitter' }),
  };
  const extractor = await services.extractor.create({
    name: 'Invoice fields',
    config: VALID_CONFIGS.extractor as unknown as JsonObject,
  });
  const classifier = await services.classifier.create({
    name: 'Doc types',
    config: VALID_CONFIGS.classifier as unknown as JsonObject,
  });
  const splitter = await services.splitter.create({
    name: 'Packets',
    config: VALID_CONFIGS.splitter as unknown as JsonObject,
  });
  return {
    ...rec,
    services,
    extractor,
    classifier,
    splitter,
    resolution: createProcessorResolution(services),
  };
}

function definition(refs: {
  classifier: { id: string; version: string };
  extractor: { id: string; version: string };
  splitter: { id: string; version: string };
  route: string;
}) {
  return {
    steps: [
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE', next: [{ step: 'split' }] },
      {
        name: 'split',
        type: 'SPLIT',
        config: { splitter: refs.splitter },
        next: [{ step: 'classify', classificationId: 'spl_invoice' }],
      },
      {
        name: 'classify',
        type: 'CLASSIFY',
        config: { classifier: refs.classifier },
        next: [{ step: 'extract', classificationId: refs.route }],
      },
      {
        name: 'extract',
        type: 'EXTRACT',
        config: { extractor: refs.extractor },
        next: [{ step: 'pick' }],
      },
      {
        name: 'pick',
        type: 'CONDITIONAL_EXTRACT',
        config: { rules: [{ formula: 'TRUE', extractor: refs.extractor }] },
      },
    ],
  };
}

describe('resolveProcessor', () => {
  it('gives the config at draft, latest and exact versions, by kind or processor type', async () => {
    const { services, extractor, resolution } = await setup();
    // Nothing published: latest falls back to the draft.
    expect(await resolution.resolveProcessor('EXTRACT', { id: extractor.id })).toEqual(
      extractor.config,
    );
    await services.extractor.publish(extractor.id, { releaseType: 'major' });
    const newer = { schema: { type: 'object', properties: { iban: { type: 'string' } } } };
    await services.extractor.update(extractor.id, { config: newer });
    expect(
      await resolution.resolveProcessor('extractor', { id: extractor.id, version: 'latest' }),
    ).toEqual(extractor.config);
    expect(
      await resolution.resolveProcessor('extractor', { id: extractor.id, version: 'draft' }),
    ).toEqual({ type: 'EXTRACT', ...newer });
    await services.extractor.publish(extractor.id, { releaseType: 'minor' });
    expect(
      await resolution.resolveProcessor('EXTRACT', { id: extractor.id, version: '1.0' }),
    ).toEqual(extractor.config);
    expect(
      await resolution.resolveProcessor('EXTRACT', { id: extractor.id, version: 'latest' }),
    ).toEqual({ type: 'EXTRACT', ...newer });
  });

  it('rejects unknown processors, versions, kinds, and processors of another kind', async () => {
    const { classifier, resolution } = await setup();
    await expect(resolution.resolveProcessor('CLASSIFY', { id: 'cl_none' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      resolution.resolveProcessor('CLASSIFY', { id: classifier.id, version: '3.0' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      resolution.resolveProcessor('SPLITTER', { id: classifier.id, version: 'draft' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      resolution.resolveProcessor('PARSE', { id: classifier.id, version: 'draft' }),
    ).rejects.toThrow(/unknown processor kind/);
  });
});

describe('resolverFor + validateWorkflowDefinition', () => {
  it('accepts references to existing versions with routing on their classification ids', async () => {
    const { services, extractor, classifier, splitter, resolution } = await setup();
    await services.classifier.publish(classifier.id, { releaseType: 'major' });
    const def = definition({
      splitter: { id: splitter.id, version: 'draft' },
      classifier: { id: classifier.id, version: '1.0' },
      extractor: { id: extractor.id, version: 'latest' },
      route: 'cls_invoice',
    });
    const processors = await resolution.resolverFor(def);
    expect(validateWorkflowDefinition(def, { processors })).toEqual([]);
  });

  it('reports missing processors and versions, unpinned and unknown routes', async () => {
    const { extractor, classifier, splitter, resolution } = await setup();
    const def = definition({
      splitter: { id: splitter.id, version: 'latest' },
      classifier: { id: classifier.id, version: '1.0' },
      extractor: { id: `${extractor.id}x`, version: 'latest' },
      route: 'cls_invoice',
    });
    const processors = await resolution.resolverFor(def);
    const issues = validateWorkflowDefinition(def, { processors }).map(
      (i) => `${i.code} ${i.path}`,
    );
    expect(issues).toEqual([
      'VERSION_NOT_PINNED steps[2].config.splitter.version',
      'PROCESSOR_NOT_FOUND steps[3].config.classifier',
      'PROCESSOR_NOT_FOUND steps[4].config.extractor',
      'PROCESSOR_NOT_FOUND steps[5].config.rules[0].extractor',
    ]);
  });

  it('checks routing against the pinned version, not the draft', async () => {
    const { services, extractor, classifier, splitter, resolution } = await setup();
    await services.classifier.publish(classifier.id, { releaseType: 'major' });
    await services.classifier.update(classifier.id, {
      config: {
        classifications: [
          { id: 'cls_receipt', type: 'receipt' },
          { id: 'cls_other', type: 'other' },
        ],
      },
    });
    const pinnedOld = definition({
      splitter: { id: splitter.id, version: 'draft' },
      classifier: { id: classifier.id, version: '1.0' },
      extractor: { id: extractor.id, version: 'draft' },
      route: 'cls_receipt',
    });
    expect(
      validateWorkflowDefinition(pinnedOld, {
        processors: await resolution.resolverFor(pinnedOld),
      }).map((i) => `${i.code} ${i.path}`),
    ).toEqual(['UNKNOWN_CLASSIFICATION steps[3].next[0].classificationId']);
    const pinnedDraft = definition({
      splitter: { id: splitter.id, version: 'draft' },
      classifier: { id: classifier.id, version: 'draft' },
      extractor: { id: extractor.id, version: 'draft' },
      route: 'cls_receipt',
    });
    expect(
      validateWorkflowDefinition(pinnedDraft, {
        processors: await resolution.resolverFor(pinnedDraft),
      }),
    ).toEqual([]);
  });

  it('answers not_pinned for latest classifiers even when asked directly', async () => {
    const { classifier, resolution } = await setup();
    const def = {
      steps: [
        { type: 'CLASSIFY', config: { classifier: { id: classifier.id, version: 'latest' } } },
      ],
    };
    const resolver = await resolution.resolverFor(def);
    expect(resolver.resolve?.('classifier', classifier.id, 'latest')).toBe('not_pinned');
    expect(resolver.resolve?.('classifier', classifier.id, 'draft')).toBe('ok');
  });
});

describe('processorReferencesOf', () => {
  it('finds every saved reference and skips malformed ones', () => {
    expect(
      processorReferencesOf({
        steps: [
          { type: 'EXTRACT', config: { extractor: { id: 'ex_1', version: '1.0' } } },
          { type: 'EXTRACT', config: { extractorConfig: { schema: {} } } },
          { type: 'CLASSIFY', config: { classifier: { id: 'cl_1' } } },
          { type: 'SPLIT', config: { splitter: { id: 'spl_1', version: 'draft' } } },
          {
            type: 'CONDITIONAL_EXTRACT',
            config: { rules: [{ extractor: { id: 'ex_2', version: 'latest' } }, null] },
          },
          null,
        ],
      }),
    ).toEqual([
      { kind: 'extractor', id: 'ex_1', version: '1.0' },
      { kind: 'splitter', id: 'spl_1', version: 'draft' },
      { kind: 'extractor', id: 'ex_2', version: 'latest' },
    ]);
    expect(processorReferencesOf('nonsense')).toEqual([]);
  });
});

describe('createProcessorResources', () => {
  it('wires three services of their kinds, createdBy and the generator into one resolution', async () => {
    const rec = await recordingContext();
    const resources = createProcessorResources(rec.ctx, {
      createdBy: { type: 'api_key', name: 'ci' },
      generateSchema: async () => ({ type: 'object', properties: { n: { type: 'number' } } }),
    });
    expect([
      resources.extractors.kind,
      resources.classifiers.kind,
      resources.splitters.kind,
    ]).toEqual(['extractor', 'classifier', 'splitter']);
    const ex = await resources.extractors.create({ name: 'G', generate: { files: [{ id: 'f' }] } });
    await resources.extractors.publish(ex.id, { releaseType: 'major' });
    const resolved = await resources.resolution.resolve('extractor', { id: ex.id });
    expect(resolved.versionSummary.createdBy).toEqual({ type: 'api_key', name: 'ci' });
    expect(resolved.config).toEqual(ex.config);
    await expect(
      resources.resolution.resolveProcessor('CLASSIFY', { id: ex.id, version: 'draft' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
