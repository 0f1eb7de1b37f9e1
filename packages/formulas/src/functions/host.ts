import { toNumber, toText } from '../coerce.ts';
import { callAsync } from '../compile/apply-function.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { fuzzySimilarity } from '../fuzzy-similarity.ts';
import { valueError } from '../site.ts';
import { COST, spend, spendText } from '../work-meter.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';

/** FUZZYMATCH and LLMJUDGE: the built-ins that mirror Extend's host functions. */
export const hostFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'FUZZYMATCH',
    category: 'host',
    minArgs: 3,
    signature: 'FUZZYMATCH(text, target, threshold)',
    summary:
      'TRUE if the similarity of the texts (1 − Levenshtein distance ÷ longer length, case-folded, whitespace-collapsed) is at least `threshold` (0 to 1). Per item over arrays.',
    examples: [
      { formula: 'FUZZYMATCH("Albertson\'s", "Albertsons", 0.8)', result: true },
      { formula: 'FUZZYMATCH("Safeway", "Albertsons", 0.8)', result: false },
    ],
    apply: ([text, target, threshold], site) => {
      const t = toNumber(threshold ?? null, site, 'the threshold') as number;
      if (t < 0 || t > 1) {
        valueError(
          site,
          FormulaErrorCode.InvalidArgument,
          `the threshold must be between 0 and 1, got ${t}`,
        );
      }
      const a = toText(text ?? null, site, 'the text') ?? '';
      const b = toText(target ?? null, site, 'the target') ?? '';
      // Levenshtein fills a table of one cell per pair of characters.
      spendText(a.length + b.length, site);
      spend(a.length * b.length * COST.levenshteinCell, site);
      const similarity = fuzzySimilarity(a, b);
      return similarity >= t - 1e-12;
    },
  }),
  builtin({
    name: 'LLMJUDGE',
    category: 'host',
    minArgs: 2,
    async: true,
    signature: 'LLMJUDGE(a, b)',
    summary:
      'Asks the injected judge (`options.judge`) whether the two values mean the same thing. Asynchronous: use evaluateRulesAsync/evaluateFormulaAsync; without a judge it is a VALUE_ERROR.',
    examples: [],
    apply: (args, site, context) => {
      const judge = context.judge;
      if (judge === undefined) {
        return valueError(
          site,
          FormulaErrorCode.UnknownFunction,
          'needs a judge; pass options.judge to use LLMJUDGE',
        );
      }
      const [a = null, b = null] = args;
      const signal = context.signal;
      return callAsync(site, args, context, async () => {
        const verdict = await judge(a, b, signal === undefined ? {} : { signal });
        if (typeof verdict !== 'boolean') throw new Error('the judge must return TRUE or FALSE');
        return verdict;
      });
    },
  }),
];
