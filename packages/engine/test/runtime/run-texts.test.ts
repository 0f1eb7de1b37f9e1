/**
 * The bounds of the runs' kept texts (`runtime/run-texts.ts`); what invalidates them is tested
 * through the engine in resources/workflow-run-json.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type RunText, RunTexts } from '../../src/runtime/run-texts.ts';

/** A text of `mib` MiB characters, and how many times it was read. */
function reader(mib: number) {
  const counter = { reads: 0 };
  const read = async (): Promise<RunText> => {
    counter.reads++;
    return { status: 'PROCESSED', json: 'x'.repeat(mib * 2 ** 20) };
  };
  return { read, counter };
}

describe('the kept run texts', () => {
  it('keep at most 64 MiB of characters together: the oldest go first, a longer text is not kept', async () => {
    const texts = new RunTexts({ keep: true });
    const a = reader(40);
    const b = reader(20);
    const c = reader(20);
    await texts.text('a', 0, a.read);
    await texts.text('b', 0, b.read);
    await texts.text('a', 0, a.read);
    expect(a.counter.reads).toBe(1);
    // 40 + 20 + 20 MiB is over the bound: a, the oldest, goes.
    await texts.text('c', 0, c.read);
    await texts.text('b', 0, b.read);
    await texts.text('c', 0, c.read);
    expect([b.counter.reads, c.counter.reads]).toEqual([1, 1]);
    await texts.text('a', 0, a.read);
    expect(a.counter.reads).toBe(2);
    const huge = reader(65);
    await texts.text('huge', 0, huge.read);
    await texts.text('huge', 0, huge.read);
    expect(huge.counter.reads).toBe(2);
  });

  it('are read again after a file deletion, and forgotten when their run changes', async () => {
    const texts = new RunTexts({ keep: true });
    const a = reader(0);
    await texts.text('a', 0, a.read);
    await texts.text('a', 0, a.read);
    expect(a.counter.reads).toBe(1);
    await texts.text('a', 1, a.read);
    expect(a.counter.reads).toBe(2);
    texts.changed('a');
    await texts.text('a', 1, a.read);
    expect(a.counter.reads).toBe(3);
  });
});
