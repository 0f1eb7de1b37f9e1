/**
 * The document a processor step works on: the nearest PARSE output on the path (one per file
 * on package runs), limited to a split child's pages, or a fresh parse of the files' bytes when
 * the path carries none.
 */
import type { FileSummary, StepContext, StepInput } from '@docflow/engine';
import { parseDocument } from '../parse/parse-document.ts';
import type { ParseConfig, ParseRunOutput } from '../parse/parse-output.ts';
import { slicePages } from '../processors/page-selection.ts';
import type { ProcessorFailure } from '../processors/run-processor.ts';
import { buildDocumentView } from '../processors/view/build-view.ts';
import type { DocumentView, ParsedFile } from '../processors/view/document-view.ts';
import type { ParseFallback } from './processor-step-options.ts';

function isParseOutput(value: unknown): value is ParseRunOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { chunks?: unknown }).chunks)
  );
}

/** The parse output(s) inside a step output: itself, `output`, `parseRun.output`, or `files`. */
function parseOutputsOf(value: unknown): ParsedFile[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { files?: unknown; output?: unknown; parseRun?: { output?: unknown } };
  if (isParseOutput(value)) {
    if (Array.isArray(v.files)) {
      const files = v.files.flatMap((f: unknown) => {
        const entry = f as { fileId?: unknown; output?: unknown };
        return typeof entry.fileId === 'string' && isParseOutput(entry.output)
          ? [{ fileId: entry.fileId, output: entry.output }]
          : [];
      });
      if (files.length > 0) return files;
    }
    return [{ output: value }];
  }
  if (isParseOutput(v.output)) return [{ output: v.output }];
  if (isParseOutput(v.parseRun?.output)) return [{ output: v.parseRun.output }];
  return undefined;
}

/** The nearest parse output on the path (outputs are in path order, so the last one). */
export function findParseOutputs(outputs: StepInput['outputs']): ParsedFile[] | undefined {
  const values = Object.values(outputs);
  for (let i = values.length - 1; i >= 0; i--) {
    const value = values[i];
    const candidates = Array.isArray(value) ? [...value].reverse() : [value];
    for (const candidate of candidates) {
      const found = parseOutputsOf(candidate);
      if (found) return found;
    }
  }
  return undefined;
}

const defaultParse: ParseFallback = async (bytes, file, { signal, config }) => {
  const result = await parseDocument(bytes, {
    fileName: file.name,
    signal,
    ...(config ? { config } : {}),
  });
  return result.ok
    ? { ok: true, output: result.output }
    : { ok: false, reason: result.failureReason, message: result.failureMessage };
};

function maxPage(output: ParseRunOutput): number {
  let max = 0;
  for (const chunk of output.chunks) max = Math.max(max, chunk.metadata.pageRange.end);
  return max;
}

/** A loaded document. */
export interface StepDocument {
  readonly view: DocumentView;
  /** Pages read. */
  readonly pages: number;
}

/**
 * Loads the document of a processor step. A split child's file carries `parentSplit`; when the
 * path's parse output is the parent's (it has pages outside the split), only the split's pages
 * are kept, renumbered from 1 and attributed to the child file.
 */
export async function loadStepDocument(
  input: StepInput<unknown>,
  context: StepContext,
  options: { parse?: ParseFallback; parseConfig?: ParseConfig } = {},
): Promise<StepDocument | ProcessorFailure> {
  const files = input.files;
  let parsed = findParseOutputs(input.outputs);
  if (parsed) {
    // Attribute parse outputs to files: by id when the PARSE step named them, else by position.
    parsed = parsed.map((p, i) => {
      const file = files[i];
      return p.fileId === undefined && file ? { ...p, fileId: file.id } : p;
    });
  } else {
    if (files.length === 0) {
      return {
        failure: { reason: 'FAILED_TO_PROCESS_FILE', message: 'The step received no file' },
      };
    }
    parsed = [];
    const parse = options.parse ?? defaultParse;
    for (const file of files) {
      const bytes = await context.files.read(file.id, { signal: context.signal });
      const result = await parse(bytes, file, {
        signal: context.signal,
        ...(options.parseConfig ? { config: options.parseConfig } : {}),
      });
      if (!result.ok) {
        const prefix = files.length > 1 ? `${file.name}: ` : '';
        return {
          failure: {
            reason: 'PARSING_ERROR',
            message: `${prefix}${result.reason}: ${result.message}`,
          },
        };
      }
      parsed.push({ output: result.output, fileId: file.id });
    }
  }
  let view = buildDocumentView(parsed);
  const only: FileSummary | undefined = files.length === 1 ? files[0] : undefined;
  const split = only?.metadata.parentSplit;
  const single = parsed.length === 1 ? parsed[0] : undefined;
  if (only && split && single) {
    // The parent's parse output has pages outside the split; a re-parsed child starts at 1.
    const last = maxPage(single.output);
    if (last >= split.endPage && (split.startPage > 1 || last > split.endPage)) {
      view = slicePages(view, split.startPage, split.endPage, only.id);
    }
  }
  return { view, pages: view.pages.length };
}
