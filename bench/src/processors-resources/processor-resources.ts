/**
 * Processor resource figures (engine side): the cost of creating, updating and publishing a
 * saved extractor and classifier on memory storage (config validation included), of validating
 * an extractor config whose JSON Schema was already compiled beside a new one (ajv compile), and
 * of preloading the processor references of a workflow definition for validation.
 *
 *   cd bench && npx tsx src/processors-resources/processor-resources.ts
 */
import { memoryStorage } from '@docflow/storage';
import { newId } from '../../../packages/engine/src/internal/ids.ts';
import { validateProcessorConfig } from '../../../packages/engine/src/processors/index.ts';
import { createProcessorResources } from '../../../packages/engine/src/resources/processor-resources.ts';
import { type Measurement, machineLine, measure } from '../harness.ts';

const storage = memoryStorage();
await storage.open();
const ctx = {
  storage,
  clock: { now: () => new Date(), sleep: async () => {} },
  newId,
  nowIso: () => new Date().toISOString(),
};
const { extractors, classifiers, resolution } = createProcessorResources(ctx);

const schema = (n: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`field_${i}_${n}`, { type: 'string' }]),
  ),
});
const classifierConfig = {
  classifications: Array.from({ length: 10 }, (_, i) => ({
    id: `cls_${i}`,
    type: i === 9 ? 'other' : `type_${i}`,
    description: `Documents of type ${i}`,
  })),
};

const rows: Measurement[] = [];
let n = 0;
rows.push(
  await measure(
    'extractor create + update + publish (20-field schema, new each time)',
    async () => {
      n++;
      const ex = await extractors.create({ name: `ex ${n}`, config: { schema: schema(n) } });
      await extractors.update(ex.id, { config: { schema: schema(n + 1_000_000) } });
      await extractors.publish(ex.id, { releaseType: 'major' });
    },
  ),
);
rows.push(
  await measure('classifier create + publish (10 classifications)', async () => {
    const cl = await classifiers.create({ name: 'cl', config: classifierConfig });
    await classifiers.publish(cl.id, { releaseType: 'minor' });
  }),
);
const known = { schema: schema(0) };
validateProcessorConfig('extractor', known);
rows.push(
  await measure('validate extractor config, schema compiled before (cached)', () =>
    validateProcessorConfig('extractor', known),
  ),
);
let fresh = 0;
rows.push(
  await measure('validate extractor config, new schema (ajv compile)', () =>
    validateProcessorConfig('extractor', { schema: schema(2_000_000 + fresh++) }),
  ),
);
const ex = await extractors.create({ name: 'ref', config: known });
const cl = await classifiers.create({ name: 'ref', config: classifierConfig });
await classifiers.publish(cl.id, { releaseType: 'major' });
const definition = {
  steps: [
    ...Array.from({ length: 5 }, (_, i) => ({
      name: `e${i}`,
      type: 'EXTRACT',
      config: { extractor: { id: ex.id, version: i % 2 ? 'draft' : 'latest' } },
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      name: `c${i}`,
      type: 'CLASSIFY',
      config: { classifier: { id: cl.id, version: i % 2 ? 'draft' : '1.0' } },
    })),
  ],
};
rows.push(
  await measure('resolverFor: a definition with 10 processor references', () =>
    resolution.resolverFor(definition),
  ),
);

console.log(machineLine());
console.log('');
console.log('| operation | ops/s | median ms | p99 ms |');
console.log('|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.opsPerSecond.toFixed(0)} | ${r.medianMs.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`,
  );
}
