import { readFile } from 'node:fs/promises';
import { CliError } from './cli-error.ts';
import { formatJsonSyntaxError, parseJsonText } from './json-text.ts';

/**
 * Reads and parses a JSON file; a missing file, or bad JSON (with its line and column), is a
 * {@link CliError} naming it.
 */
export async function loadJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  const result = parseJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!result.ok) {
    throw new CliError(`${what} ${path} is not valid JSON ${formatJsonSyntaxError(result.error)}`);
  }
  return result.value;
}
