import { RE2JS } from 're2js';

/** What a regular expression costs: called with the characters × program instructions a match steps through. */
export type ChargeSteps = (steps: number) => void;

/**
 * A `RegExp`-shaped class for JSONata's `RegexEngine` option (`exec` from `lastIndex`), backed by
 * re2js: JSONata regular expressions in WEBHOOK_RESPONSE bodies match in time linear in the text,
 * as formulas do (decision 0011). Each match is charged to the evaluation through `charge`.
 */
export function re2RegExpClass(charge: ChargeSteps): RegExpConstructor {
  class Re2RegExp {
    lastIndex = 0;
    readonly #regex: RE2JS;
    readonly #size: number;

    constructor(pattern: RegExp | string, flags?: string) {
      const source = typeof pattern === 'string' ? pattern : RE2JS.translateRegExp(pattern);
      const all = `${typeof pattern === 'string' ? '' : pattern.flags}${flags ?? ''}`;
      let bits = 0;
      if (all.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
      if (all.includes('m')) bits |= RE2JS.MULTILINE;
      if (all.includes('s')) bits |= RE2JS.DOTALL;
      try {
        this.#regex = RE2JS.compile(source, bits);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`the regular expression /${source}/ is not valid RE2 syntax: ${reason}`);
      }
      this.#size = this.#regex.programSize();
    }

    exec(text: string): RegExpExecArray | null {
      const from = this.lastIndex;
      charge((text.length - from + 1) * this.#size);
      const matcher = this.#regex.matcher(text);
      if (!matcher.find(from)) {
        this.lastIndex = 0;
        return null;
      }
      const groups: (string | undefined)[] = [];
      for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? undefined);
      const match = Object.assign(groups, { index: matcher.start(), input: text });
      this.lastIndex = matcher.end();
      return match as unknown as RegExpExecArray;
    }

    test(text: string): boolean {
      return this.exec(text) !== null;
    }
  }
  return Re2RegExp as unknown as RegExpConstructor;
}
