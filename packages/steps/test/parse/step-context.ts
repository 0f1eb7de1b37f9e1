import type { FileSummary, StepContext, StepInput } from '@docflow/engine';
import type { ParseStepConfig } from '../../src/parse/parse-step.ts';

/** A file summary and an in-memory StepContext serving its bytes, for executor tests. */
export function fakeStep(
  files: readonly { name: string; data: Uint8Array }[],
  config: ParseStepConfig = {},
): { input: StepInput<ParseStepConfig>; context: StepContext } {
  const store = new Map<string, Uint8Array>();
  const summaries: FileSummary[] = files.map((file, index) => {
    const id = `file_${index + 1}`;
    store.set(id, file.data);
    return {
      object: 'file',
      id,
      name: file.name,
      type: null,
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  });
  const context: StepContext = {
    signal: new AbortController().signal,
    idempotencyKey: 'key',
    runId: 'workflow_run_1',
    stepRunId: 'workflow_step_run_1',
    attempt: 1,
    secrets: {},
    now: () => new Date('2026-01-01T00:00:00.000Z'),
    files: {
      async read(fileId) {
        const data = store.get(fileId);
        if (!data) throw new Error(`no file ${fileId}`);
        return data;
      },
      async create() {
        throw new Error('PARSE creates no files');
      },
    },
  };
  return {
    input: {
      stepName: 'parse',
      stepType: 'PARSE',
      config,
      files: summaries,
      outputs: {},
      metadata: {},
    },
    context,
  };
}

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
