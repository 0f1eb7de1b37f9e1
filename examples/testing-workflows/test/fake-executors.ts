/**
 * Fake executors for the expense workflow. Each test document is JSON text saying what the
 * document is and what a real extractor would find in it, so a test reads like its fixture.
 */
import { StepError, type StepInput, type WorkflowRun } from '@docflow/engine';
import { fakeStep } from '@docflow/engine/testing';

/** A test document: its kind and the fields the extractor "finds". */
export interface TestDocument {
  readonly kind: 'invoice' | 'receipt' | 'letter';
  readonly fields?: Record<string, unknown>;
}

const classes = { invoice: 'cls_invoice', receipt: 'cls_receipt', letter: 'cls_other' } as const;

/** The document a path carries, read back from the fake PARSE output. */
function documentOf(input: StepInput): TestDocument {
  const parse = input.outputs.parse as { chunks: { content: string }[] };
  return JSON.parse(parse.chunks[0]?.content ?? '{}') as TestDocument;
}

/** Options of {@link fakeExecutors}. */
export interface FakeOptions {
  /** The extractor fails retryably this many times before answering. */
  readonly extractFailures?: number;
}

/** PARSE, CLASSIFY and EXTRACT fakes; `calls` on each records what ran. */
export function fakeExecutors(options: FakeOptions = {}) {
  let failuresLeft = options.extractFailures ?? 0;
  const parse = fakeStep('PARSE', async (input, context) => {
    const file = input.files[0];
    const text = file ? new TextDecoder().decode(await context.files.read(file.id)) : '';
    return { chunks: [{ type: 'document', content: text }] };
  });
  const classify = fakeStep('CLASSIFY', (input) => {
    const { kind } = documentOf(input);
    return { id: classes[kind], type: kind === 'letter' ? 'other' : kind, confidence: 0.97 };
  });
  const extract = fakeStep('EXTRACT', (input) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new StepError('extraction provider busy (429)', { retryable: true });
    }
    return { value: documentOf(input).fields ?? {}, metadata: {} };
  });
  return { parse, classify, extract, steps: [parse, classify, extract] };
}

/** The status of each step of a run, by step name. */
export function stepStatuses(run: WorkflowRun): Record<string, string> {
  return Object.fromEntries(run.stepRuns.map((s) => [s.step.name, s.status]));
}

/** The output of the named step of a run. */
export function stepOutput(run: WorkflowRun, name: string): unknown {
  const step = run.stepRuns.find((s) => s.step.name === name);
  return (step?.result as { output?: unknown } | null | undefined)?.output;
}
