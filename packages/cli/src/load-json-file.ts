import { readFile } from 'node:fs/promises';
import { CliError } from './cli-error.ts';

/** Reads and parses a JSON file; a missing file or bad JSON is a {@link CliError} naming it. */
export async function loadJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
