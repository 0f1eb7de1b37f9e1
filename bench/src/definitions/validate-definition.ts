/**
 * Workflow definition figures: validating a definition (JSON Schema + graph + formula checks)
 * beside the JSON Schema check alone (the floor: what ajv costs), for a 15-step definition
 * using every step type and a 500-step one (the size limit); building the runtime graph with
 * bitset reachability beside a Set-per-step transitive closure; and the one-time cost of the
 * first validation in a process (compiling the schema pieces the definition needs).
 *
 *   cd bench && npx tsx src/definitions/validate-definition.ts
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type ComparisonRow, machineLine, measure, report } from '../harness.ts';

// Measured before anything else compiles the schema in this process.
const coldStart = performance.now();
const { validateWorkflowDefinition } = await import('@docflow/engine');
const importMs = performance.now() - coldStart;
const fixture = JSON.parse(
  readFileSync(
    new URL(
      '../../../packages/engine/test/definition/fixtures/all-step-types.workflow.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as { steps: { name: string; next?: { step: string }[] }[] };
const firstCall = performance.now();
const firstIssues = validateWorkflowDefinition(fixture);
const firstCallMs = performance.now() - firstCall;
if (firstIssues.length > 0) throw new Error('fixture should be valid');

// Not part of the public door (yet): the definition module's own exports.
const { buildWorkflowGraph, checkDefinitionSchema } = await import(
  '../../../packages/engine/src/definition/index.ts'
);

const durationMs = Number(process.env.BENCH_MS ?? 2000);

/** trigger → parse → 497 review steps, each routing to the next two, → webhook. */
function wideChain(count: number) {
  const steps: { name: string; type: string; next?: { step: string }[] }[] = [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 's0' }] },
  ];
  const middle = count - 3;
  for (let i = 0; i < middle; i++) {
    const next = [i + 1, i + 2]
      .filter((j) => j <= middle)
      .map((j) => ({ step: j === middle ? 'webhook' : `s${j}` }));
    steps.push({
      name: `s${i}`,
      type: i % 2 ? 'COLLECT' : 'HUMAN_REVIEW',
      next: [...new Map(next.map((n) => [n.step, n])).values()],
    });
  }
  steps.push({ name: 'webhook', type: 'WEBHOOK_RESPONSE' });
  return { steps };
}
const large = wideChain(500);
if (validateWorkflowDefinition(large).length > 0) throw new Error('large should be valid');

/** A Set-per-step transitive closure, memoised recursion (the straightforward alternative). */
function setClosure(steps: readonly { name: string; next?: readonly { step: string }[] }[]) {
  const byName = new Map(steps.map((s) => [s.name, s]));
  const reach = new Map<string, Set<string>>();
  const visit = (name: string): Set<string> => {
    const known = reach.get(name);
    if (known) return known;
    const out = new Set<string>([name]);
    reach.set(name, out);
    for (const n of byName.get(name)?.next ?? []) for (const r of visit(n.step)) out.add(r);
    return out;
  };
  for (const s of steps) visit(s.name);
  return (from: string, to: string) => reach.get(from)?.has(to) ?? false;
}

const rows: ComparisonRow[] = [
  {
    subject: await measure(
      'validateWorkflowDefinition, 15 steps (all types)',
      () => validateWorkflowDefinition(fixture),
      { durationMs },
    ),
    peer: await measure('JSON Schema check only, 15 steps', () => checkDefinitionSchema(fixture), {
      durationMs,
    }),
  },
  {
    subject: await measure(
      'validateWorkflowDefinition, 500 steps',
      () => validateWorkflowDefinition(large),
      { durationMs },
    ),
    peer: await measure('JSON Schema check only, 500 steps', () => checkDefinitionSchema(large), {
      durationMs,
    }),
  },
  {
    subject: await measure(
      'buildWorkflowGraph (bitsets), 500 steps',
      () => buildWorkflowGraph(large as never),
      {
        durationMs,
      },
    ),
    peer: await measure('Set-per-step closure, 500 steps', () => setClosure(large.steps), {
      durationMs,
    }),
  },
];
const graph = buildWorkflowGraph(large as never);
const closure = setClosure(large.steps);
const names = large.steps.map((s) => s.name);
const pairs = names.length * names.length;
rows.push({
  subject: await measure(
    'canReach, all 250,000 pairs (bitsets)',
    () => {
      let n = 0;
      for (const a of names) for (const b of names) if (graph.canReach(a, b)) n++;
      return n;
    },
    { durationMs, opsPerCall: pairs },
  ),
  peer: await measure(
    'has() on Set closure, all pairs',
    () => {
      let n = 0;
      for (const a of names) for (const b of names) if (closure(a, b)) n++;
      return n;
    },
    { durationMs, opsPerCall: pairs },
  ),
});
report('Workflow definitions: validation and graph', rows);
console.log(machineLine());
console.log(
  `First validation in a fresh process (compiles the schema pieces of its 14 step types): ${firstCallMs.toFixed(1)} ms; importing @docflow/engine: ${importMs.toFixed(1)} ms`,
);
