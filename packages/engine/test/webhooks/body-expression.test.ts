/**
 * WEBHOOK_RESPONSE bodies are JSONata written by a workflow's author: each hostile body ends with
 * a message through a limit (work, depth, sizes), the event loop keeps turning meanwhile, and
 * regular expressions run on RE2.
 */
import { describe, expect, test } from 'vitest';
import {
  BODY_EXPRESSION_LIMITS,
  evaluateBodyExpression,
} from '../../src/webhooks/body-expression.ts';

const input = { run: { id: 'workflow_run_1' }, outputs: { extract1: { total: 30, name: 'ACME' } } };

describe('evaluateBodyExpression', () => {
  test('an ordinary body reshapes the path result', async () => {
    expect(
      await evaluateBodyExpression('{ "id": run.id, "total": outputs.extract1.total * 2 }', input),
    ).toEqual({ ok: true, value: { id: 'workflow_run_1', total: 60 } });
    expect(await evaluateBodyExpression('$uppercase(outputs.extract1.name)', input)).toEqual({
      ok: true,
      value: 'ACME',
    });
  });

  test('a loop that never ends stops at the work budget, and the event loop turns meanwhile', async () => {
    let turns = 0;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    // Tail calls do not deepen JSONata's stack: only the work budget stops this.
    const result = await evaluateBodyExpression(
      '($loop := function($n) { $loop($n + 1) }; $loop(0))',
      input,
    );
    done = true;
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/needs more work than its budget of 200,000 units/),
    });
    // At least one turn per 1,000 units of work.
    expect(turns).toBeGreaterThanOrEqual(
      BODY_EXPRESSION_LIMITS.work / BODY_EXPRESSION_LIMITS.turnEvery - 1,
    );
  });

  test('deep recursion stops at the depth limit', async () => {
    const result = await evaluateBodyExpression(
      '($deep := function($n) { $n = 0 ? 0 : 1 + $deep($n - 1) }; $deep(100000))',
      input,
    );
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/D1011|[Ss]tack/) });
  });

  test.each([
    ['$pad', '$pad("x", 100000000)', /\$pad would make a text of up to 100,000,000 characters/],
    [
      '$join with a long separator',
      '$join([1..1000].$string(), $pad("", 100000))',
      /\$join would make a text of up to/,
    ],
    [
      '$replace of every position',
      '$replace($pad("", 10000, "a"), "a", $pad("", 1000))',
      /\$replace would make a text of up to/,
    ],
    [
      'a text doubled by recursion',
      '($double := function($s, $n) { $n = 0 ? $s : $double($s & $s, $n - 1) }; $double("ab", 40))',
      /made a text of [\d,]+ characters, more than 1,048,576/,
    ],
    ['a range of ten million', '$count([1..10000000])', /D2015|100,000/],
  ])('%s is refused before it is built', async (_, body, message) => {
    expect(await evaluateBodyExpression(body, input)).toEqual({
      ok: false,
      message: expect.stringMatching(message),
    });
  });

  test('regular expressions run on RE2: a pattern that backtracks exponentially in V8 answers at once', async () => {
    const name = `${'a'.repeat(40)}!`;
    expect(await evaluateBodyExpression('$contains(name, /^(\\w+\\s?)*$/)', { name })).toEqual({
      ok: true,
      value: false,
    });
    expect(
      await evaluateBodyExpression('$match("INV-12 INV-34", /INV-(\\d+)/).groups[0]', {}),
    ).toEqual({ ok: true, value: ['12', '34'] });
    expect(await evaluateBodyExpression('$replace("a-b-c", /-/, "+")', {})).toEqual({
      ok: true,
      value: 'a+b+c',
    });
    expect(await evaluateBodyExpression('$contains("ab", /(a)\\1/)', {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid RE2 syntax/),
    });
  });
});
