/**
 * The formula evaluator against its peers on the same two rules and the same data, in one
 * script (issue 3):
 *
 *   cd bench && npx tsx src/formulas/rules.ts
 *
 * - sum rule: `SUM(line_items.amount) = total` over 20 line items;
 * - includes rule: `INCLUDES(tags, "urgent")` over 10 strings, case-insensitive;
 * - parse + compile of a 200-character formula (each call compiles a formula not seen before).
 *
 * Subjects: docflow's compiled formula (`compileFormula(...).formula.evaluate(record)`), JSONata's
 * compiled expression (`await expr.evaluate(record)`), and a hand-written JS closure, the floor.
 * 1,024 generated records per rule, half passing, are cycled so nothing constant-folds; every
 * subject's answers are checked against the closure on all records before timing. Each pair runs
 * BENCH_ROUNDS alternating rounds (the machine is shared) and keeps its best (for parse +
 * compile, the round with the lowest median).
 */
import { compileFormula } from '@docflow/formulas';
import jsonata from 'jsonata';
import { type ComparisonRow, type Measurement, measure, report } from '../harness.ts';

const durationMs = Number(process.env.BENCH_MS ?? 1500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const RECORDS = 1024;

interface Invoice {
  readonly total: number;
  readonly line_items: readonly { readonly amount: number; readonly description: string }[];
}
interface Tagged {
  readonly tags: readonly string[];
}

let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}

const invoices: Invoice[] = Array.from({ length: RECORDS }, (_, r) => {
  const line_items = Array.from({ length: 20 }, (_, i) => ({
    amount: Math.round(random() * 100_000) / 100,
    description: `item ${i}`,
  }));
  const sum = line_items.reduce((s, item) => s + item.amount, 0);
  return {
    line_items,
    total: r % 2 === 0 ? Math.round(sum * 100) / 100 : Math.round(sum * 100 + 7) / 100,
  };
});
const WORDS = [
  'invoice',
  'Paid',
  'net 30',
  'EUR',
  'reviewed',
  'Priority',
  'scan',
  'ok',
  'Vendor',
  'misc',
];
const tagged: Tagged[] = Array.from({ length: RECORDS }, (_, r) => ({
  tags: Array.from({ length: 10 }, (_, i) =>
    r % 2 === 0 && i === Math.floor(random() * 10)
      ? 'Not URGENT at all'
      : `${WORDS[i]} ${Math.floor(random() * 100)}`,
  ),
}));

// The floor: what a programmer would write by hand (tolerant equality as docflow's `=`).
function sumClosure(record: Invoice): boolean {
  let sum = 0;
  const items = record.line_items;
  for (let i = 0; i < items.length; i++) sum += (items[i] as { amount: number }).amount;
  return Math.abs(sum - record.total) <= 1e-9 * Math.max(Math.abs(sum), Math.abs(record.total));
}
function includesClosure(record: Tagged): boolean {
  const tags = record.tags;
  for (let i = 0; i < tags.length; i++)
    if ((tags[i] as string).toLowerCase().includes('urgent')) return true;
  return false;
}

function compiled(source: string) {
  const result = compileFormula(source);
  if (!result.ok) throw new Error(result.diagnostics[0]?.message);
  return result.formula;
}
const docflowSum = compiled('SUM(line_items.amount) = total');
const docflowIncludes = compiled('INCLUDES(tags, "urgent")');
// JSONata's `=` is exact, so the equivalent compares with the same tolerance.
const jsonataSum = jsonata(
  '$abs($sum(line_items.amount) - total) <= 1e-9 * $max([$abs($sum(line_items.amount)), $abs(total)])',
);
const jsonataIncludes = jsonata('$exists(tags[$contains($lowercase($), "urgent")])');

async function check(): Promise<void> {
  for (let r = 0; r < RECORDS; r++) {
    const inv = invoices[r] as Invoice;
    const tag = tagged[r] as Tagged;
    const expectedSum = sumClosure(inv);
    const expectedIncludes = includesClosure(tag);
    const ds = docflowSum.evaluate(inv);
    const di = docflowIncludes.evaluate(tag);
    if (!ds.ok || ds.value !== expectedSum) throw new Error(`docflow sum disagrees on record ${r}`);
    if (!di.ok || di.value !== expectedIncludes)
      throw new Error(`docflow includes disagrees on record ${r}`);
    if ((await jsonataSum.evaluate(inv)) !== expectedSum)
      throw new Error(`jsonata sum disagrees on record ${r}`);
    if ((await jsonataIncludes.evaluate(tag)) !== expectedIncludes)
      throw new Error(`jsonata includes disagrees on record ${r}`);
  }
  if (invoices.filter(sumClosure).length !== RECORDS / 2)
    throw new Error('sum data is not half passing');
}

let sink = 0;
function batch<T>(records: readonly T[], evaluate: (record: T) => unknown): () => void {
  return () => {
    for (let r = 0; r < records.length; r++) if (evaluate(records[r] as T) === true) sink++;
  };
}
function asyncBatch<T>(
  records: readonly T[],
  evaluate: (record: T) => Promise<unknown>,
): () => Promise<void> {
  return async () => {
    for (let r = 0; r < records.length; r++) if ((await evaluate(records[r] as T)) === true) sink++;
  };
}

async function best(name: string, fn: () => unknown, opsPerCall: number): Promise<Measurement> {
  return measure(name, fn, { durationMs, opsPerCall, warmupMs: 300 });
}

/** Keeps, per subject, the best round: highest throughput, or lowest median with `byMedian`. */
async function pair(
  subject: [string, () => unknown, number],
  peer: [string, () => unknown, number],
  target: string,
  byMedian = false,
): Promise<ComparisonRow> {
  let s: Measurement | undefined;
  let p: Measurement | undefined;
  const better = (x: Measurement, y: Measurement | undefined): boolean =>
    y === undefined || (byMedian ? x.medianMs < y.medianMs : x.opsPerSecond > y.opsPerSecond);
  for (let round = 0; round < rounds; round++) {
    const a = await best(...subject);
    const b = await best(...peer);
    if (better(a, s)) s = a;
    if (better(b, p)) p = b;
  }
  return { subject: s as Measurement, peer: p as Measurement, target };
}

// ~200 characters of a realistic rule, with a counter so that every call compiles a new formula
// (compiled programs are cached by source text).
let counter = 0;
function longFormula(): string {
  counter++;
  return `IF(classify1 = "invoice", AND(SUM(extract1.line_items.amount) = extract1.total, ROUND(extract1.tax / extract1.net, 2) = 0.19, INCLUDES(extract1.tags, "paid")), ISPRESENT(extract1.id${counter % 10})) OR ${counter} = 0`;
}
function longJsonata(): string {
  counter++;
  return `classify1 = "invoice" ? ($sum(extract1.line_items.amount) = extract1.total and $round(extract1.tax / extract1.net, 2) = 0.19 and $exists(extract1.tags[$contains($, "paid")])) : $exists(extract1.id) or ${counter} = 0`;
}

await check();
const sample = longFormula();
console.log(`200-character formula (${sample.length} chars): ${sample}\n`);

const rows: ComparisonRow[] = [];
rows.push(
  await pair(
    [
      'docflow compiled: sum rule',
      batch(invoices, (r) => (docflowSum.evaluate(r) as { value?: unknown }).value),
      RECORDS,
    ],
    ['JSONata compiled: sum rule', asyncBatch(invoices, (r) => jsonataSum.evaluate(r)), RECORDS],
    '≥ 25',
  ),
);
rows.push(
  await pair(
    [
      'docflow compiled: sum rule',
      batch(invoices, (r) => (docflowSum.evaluate(r) as { value?: unknown }).value),
      RECORDS,
    ],
    ['JS closure: sum rule', batch(invoices, sumClosure), RECORDS],
    '≥ 0.1 (within 10×)',
  ),
);
rows.push(
  await pair(
    [
      'docflow compiled: includes rule',
      batch(tagged, (r) => (docflowIncludes.evaluate(r) as { value?: unknown }).value),
      RECORDS,
    ],
    [
      'JSONata compiled: includes rule',
      asyncBatch(tagged, (r) => jsonataIncludes.evaluate(r)),
      RECORDS,
    ],
    '',
  ),
);
rows.push(
  await pair(
    [
      'docflow compiled: includes rule',
      batch(tagged, (r) => (docflowIncludes.evaluate(r) as { value?: unknown }).value),
      RECORDS,
    ],
    ['JS closure: includes rule', batch(tagged, includesClosure), RECORDS],
    '',
  ),
);
report('Formula evaluation (throughput = rule evaluations/s; median/p99 per batch of 1,024)', rows);

const compileRows: ComparisonRow[] = [
  await pair(
    ['docflow parse + compile (200 chars)', () => compileFormula(longFormula()), 1],
    ['JSONata jsonata(expr) (≈200 chars)', () => jsonata(longJsonata()), 1],
    'docflow median < 0.020 ms',
    true,
  ),
];
report('Parse + compile of a new ~200-character formula (median per formula)', compileRows);

// The same in batches of 100 formulas per timed call, which takes the timer and the await of
// the harness out of each sample: median batch time / 100.
const BATCH = 100;
const batched = await pair(
  [
    'docflow parse + compile, batches of 100',
    () => {
      for (let i = 0; i < BATCH; i++) compileFormula(longFormula());
    },
    BATCH,
  ],
  [
    'JSONata jsonata(expr), batches of 100',
    () => {
      for (let i = 0; i < BATCH; i++) jsonata(longJsonata());
    },
    BATCH,
  ],
  'docflow median / 100 < 0.020 ms',
  true,
);
report('Parse + compile in batches of 100 (median per batch)', [batched]);
console.log(
  `docflow parse + compile: ${((batched.subject.medianMs / BATCH) * 1000).toFixed(1)} µs per formula (median batch / ${BATCH}); JSONata: ${((batched.peer.medianMs / BATCH) * 1000).toFixed(1)} µs`,
);
console.log(`(sink ${sink > 0 ? 'ok' : 'empty'})`);
