/** `docflow parse <file>`: the file's chunks as markdown, or the whole parse output as JSON. */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ChunkingStrategyType } from '@docflow/steps';
import type { CliContext } from '../cli-context.ts';
import { CliError, ExitCode } from '../cli-error.ts';
import { createParseProgress } from '../output/parse-progress.ts';

/** Options of `docflow parse`. */
export interface ParseOptions {
  readonly json?: boolean;
  readonly chunking?: ChunkingStrategyType;
  /** `false` (`--no-progress`): no page bar on a terminal. */
  readonly progress?: boolean;
}

/** Runs the command; resolves with 1 when the file cannot be parsed (with the interface's reason). */
export async function parseCommand(
  context: CliContext,
  path: string,
  options: ParseOptions,
): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(resolve(context.cwd, path));
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const { parseDocument, closeOcrPool } = await import('@docflow/steps');
  const progress = createParseProgress(context, basename(path), options.progress !== false);
  try {
    const result = await parseDocument(bytes, {
      fileName: basename(path),
      ...(options.chunking ? { config: { chunkingStrategy: { type: options.chunking } } } : {}),
      onProgress: (p) => progress.update(p),
    });
    progress.stop();
    if (!result.ok) {
      context.warn(
        `${context.err.red('✗')} ${path}: ${result.failureReason}: ${result.failureMessage}`,
      );
      return ExitCode.FAILURE;
    }
    if (options.json) {
      context.print(JSON.stringify(result, null, 2));
      return ExitCode.OK;
    }
    const chunks = result.output.chunks;
    chunks.forEach((chunk, i) => {
      if (chunks.length > 1) {
        const { start, end } = chunk.metadata.pageRange;
        const pages = start === end ? `page ${start}` : `pages ${start}-${end}`;
        context.print(
          `${i === 0 ? '' : '\n'}<!-- chunk ${i + 1} of ${chunks.length}: ${pages} -->\n`,
        );
      }
      context.print(chunk.content);
    });
    return ExitCode.OK;
  } finally {
    progress.stop();
    // OCR workers keep the process alive otherwise.
    await closeOcrPool();
  }
}
