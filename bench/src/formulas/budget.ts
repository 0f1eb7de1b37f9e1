/**
 * How long one formula evaluation can hold the thread under the default work budget (issue 21:
 * "cannot block the event loop for more than a few milliseconds per run"):
 *
 *   cd bench && npx tsx src/formulas/budget.ts
 *
 * Each case is the slowest construction found for one kind of work. The script finds the units it
 * spends (the smallest `workBudget` it finishes under), times it without a limit, and reports the
 * time per unit and so the time one evaluation can hold the thread under the default budget of
 * 500,000 units. Cases run in BENCH_ROUNDS interleaved rounds (the machine is shared); the median
 * and the worst round are reported.
 *
 * The peer is what the same attacks cost before the limits (issue 21's table): V8's backtracking
 * RegExp on `^(\w+\s?)*$` against a 24-character name (doubling per character), and SUBSTITUTE
 * nested 5 deep building 10^6 characters without a bound.
 */
import { evaluateFormula, type FormulaScope } from '@docflow/formulas';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);

interface Case {
  readonly name: string;
  readonly formula: string;
  readonly scope: FormulaScope;
}

const cyrillic = 'абвгдежзийклмнопрстуфхцчшщ';
let seed = 7;
function random(n: number): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return Math.floor((seed / 2 ** 31) * n);
}
function text(length: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[random(alphabet.length)];
  return s;
}

const N = 20_000;
const words = Array.from({ length: N }, () => `Straße ${text(8, cyrillic)}`);
const nums = Array.from({ length: N }, (_, i) => i * 1.25);
const amounts = Array.from({ length: N }, (_, i) => ({ amount: i, iso_4217: 'EUR' }));
const dates = Array.from({ length: N }, (_, i) => `${1 + (i % 28)} Jan 20${10 + (i % 80)}`);
const orders = Array.from({ length: 2_000 }, (_, i) => ({
  items: Array.from({ length: 50 }, (_, k) => ({ amount: i + k, sku: `S${k}` })),
}));
const longCyrillic = text(30_000, `${cyrillic} `);
const ab = text(3_000, 'ab');
const fewWords = words.slice(0, 1_000);
const chain = (term: string, n: number) => Array(n).fill(term).join(' + ');

const cases: Case[] = [
  {
    name: 'text = per item (non-ASCII fold)',
    formula: 'AND(words = "straße x")',
    scope: { words },
  },
  {
    name: 'currency arithmetic per item',
    formula: 'SUM(amounts * 2 + amounts)',
    scope: { amounts },
  },
  { name: 'TEXT per item', formula: 'COUNTA(TEXT(nums, "#,##0.00"))', scope: { nums } },
  { name: 'DATEVALUE per item', formula: 'SUM(DATEVALUE(dates))', scope: { dates } },
  { name: 'VALUE per item', formula: 'SUM(VALUE(TEXT(nums, "0.00")))', scope: { nums } },
  { name: 'numbers, fast path', formula: `SUM(${chain('nums', 40)})`, scope: { nums } },
  {
    name: 'path projection (nested)',
    formula: `COUNTA(${chain('orders.items.amount', 20)})`,
    scope: { orders },
  },
  { name: 'SUM over a path', formula: chain('SUM(orders.items.amount)', 10), scope: { orders } },
  { name: 'UNIQUE (quadratic)', formula: 'COUNTA(UNIQUE(fewWords))', scope: { fewWords } },
  { name: 'INCLUDES over long items', formula: 'INCLUDES(words, "zzz")', scope: { words } },
  {
    name: 'FUZZYMATCH of long texts',
    formula: 'FUZZYMATCH(a, b, 0.5)',
    scope: { a: longCyrillic.slice(0, 2_000), b: longCyrillic.slice(1, 2_001) },
  },
  { name: 'REGEXMATCH, DFA thrash', formula: 'REGEXMATCH(t, "[ab]*a[ab]{20}$")', scope: { t: ab } },
  {
    name: 'REGEXMATCH, Unicode classes',
    formula: 'REGEXMATCH(t, "(?i)[\\pL\\pN\\pM\\pS]*а[\\pL\\pN\\pM\\pS]{30}$")',
    scope: { t: longCyrillic.slice(0, 3_000) },
  },
  {
    name: 'SEARCH wildcards',
    formula: 'IFERROR(SEARCH("а*б*в*г*д*!", t), 0)',
    scope: { t: longCyrillic.slice(0, 3_000) },
  },
  {
    name: 'UPPER of a long field, repeated',
    formula: chain('LEN(UPPER(LEFT(t, 30000)))', 40),
    scope: { t: longCyrillic },
  },
  {
    name: 'SUBSTITUTE per item',
    formula: 'SUM(LEN(SUBSTITUTE(words, "а", "бб")))',
    scope: { words },
  },
  {
    name: 'string compare of long texts',
    formula: chain('IF(t = u, 1, 0)', 60),
    scope: { t: longCyrillic, u: `${longCyrillic}x` },
  },
];

/** The smallest budget the case finishes under: the units it spends (binary search, 1%). */
function unitsOf(c: Case): number {
  let low = 1;
  let high = 1;
  while (!evaluateFormula(c.formula, c.scope, { workBudget: high }).ok) {
    low = high;
    high *= 4;
    if (high > 1e12)
      throw new Error(
        `${c.name} does not finish: ${JSON.stringify(evaluateFormula(c.formula, c.scope, { workBudget: 1e15 }))}`,
      );
  }
  while (high - low > low / 100) {
    const mid = Math.floor((low + high) / 2);
    if (evaluateFormula(c.formula, c.scope, { workBudget: mid }).ok) high = mid;
    else low = mid;
  }
  return high;
}

function timeOf(c: Case): number {
  const t0 = performance.now();
  const result = evaluateFormula(c.formula, c.scope, { workBudget: Number.POSITIVE_INFINITY });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error(`${c.name}: ${result.error}`);
  return ms;
}

function backtrackingPeer(): number {
  const t0 = performance.now();
  /^(\w+\s?)*$/.test(`${'a'.repeat(24)}!`);
  return performance.now() - t0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const units = new Map(cases.map((c) => [c.name, unitsOf(c)]));
const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const peer: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const c of round % 2 === 0 ? cases : [...cases].reverse())
    times.get(c.name)?.push(timeOf(c));
  if (round < 3) peer.push(backtrackingPeer());
}

const budget = 500_000;
console.log(
  '| case | units | median ms | ns per unit (median) | ms per default budget (median / worst round) |',
);
console.log('|---|---|---|---|---|');
for (const c of cases) {
  const t = times.get(c.name) ?? [];
  const u = units.get(c.name) ?? Number.NaN;
  console.log(
    `| ${c.name} | ${u.toLocaleString('en-US')} | ${median(t).toFixed(1)} | ${((median(t) * 1e6) / u).toFixed(1)} | ${((median(t) * budget) / u).toFixed(1)} / ${((Math.max(...t) * budget) / u).toFixed(1)} |`,
  );
}
console.log(
  `\nPeer (before the limits): V8 backtracking on ^(\\w+\\s?)*$, 24 characters: ${median(peer).toFixed(0)} ms (doubling per character; 28 took 6.7 s in the issue).`,
);
