/**
 * A minimal in-memory stand-in for what the engine gives an executor: files by id, a context
 * with an AbortSignal, secrets and a clock. Used to run executors directly in tests.
 */
import type {
  FileSummary,
  FileType,
  NewFile,
  StepContext,
  StepInput,
  StepType,
} from '@docflow/engine';

/** A file store with the engine's `files.read` / `files.create` shape. */
export interface MemoryFiles {
  readonly bytes: Map<string, Uint8Array>;
  readonly created: FileSummary[];
  add(
    name: string,
    data: Uint8Array | string,
    type?: FileType | null,
    metadata?: FileSummary['metadata'],
  ): FileSummary;
}

function typeOf(name: string): FileType | null {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const map: Record<string, FileType> = {
    pdf: 'PDF',
    txt: 'TXT',
    png: 'IMG',
    jpg: 'IMG',
    html: 'HTML',
    docx: 'DOCX',
    csv: 'CSV',
  };
  return map[ext] ?? null;
}

/** An empty file store. */
export function memoryFiles(): MemoryFiles {
  const bytes = new Map<string, Uint8Array>();
  const created: FileSummary[] = [];
  let n = 0;
  const add = (
    name: string,
    data: Uint8Array | string,
    type?: FileType | null,
    metadata: FileSummary['metadata'] = {},
  ) => {
    const id = `file_${++n}`;
    bytes.set(id, typeof data === 'string' ? new TextEncoder().encode(data) : data);
    const now = '2026-01-01T00:00:00.000Z';
    return {
      object: 'file' as const,
      id,
      name,
      type: type === undefined ? typeOf(name) : type,
      metadata,
      createdAt: now,
      updatedAt: now,
    };
  };
  return { bytes, created, add };
}

/** A step context over `files`. */
export function stepContext(
  files: MemoryFiles,
  options: { signal?: AbortSignal; secrets?: Record<string, string>; now?: Date } = {},
): StepContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    idempotencyKey: 'idem_1',
    runId: 'workflow_run_1',
    stepRunId: 'workflow_step_run_1',
    attempt: 1,
    secrets: options.secrets ?? {},
    now: () => options.now ?? new Date('2026-01-01T00:00:00Z'),
    files: {
      async read(fileId) {
        const data = files.bytes.get(fileId);
        if (!data) throw new Error(`no file ${fileId}`);
        return data;
      },
      async create(file: NewFile) {
        const summary = files.add(file.name, file.data, undefined, file.metadata ?? {});
        const withParent = file.parentFileId
          ? { ...summary, parentFileId: file.parentFileId }
          : summary;
        files.created.push(withParent);
        return withParent;
      },
    },
  };
}

/** A step input. */
export function stepInput<C>(
  stepType: StepType,
  config: C,
  files: readonly FileSummary[],
  outputs: StepInput['outputs'] = {},
  metadata: StepInput['metadata'] = {},
): StepInput<C> {
  return { stepName: stepType.toLowerCase(), stepType, config, files, outputs, metadata };
}
