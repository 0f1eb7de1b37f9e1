/** Runs the real `docflow` executable in a subprocess, as a user's shell would. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const made: string[] = [];
// Tests here run concurrently: the directories go when every test of the file is done.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp directory removed after the test file's tests. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const BIN = fileURLToPath(new URL('../bin/docflow.mjs', import.meta.url));

/** What a CLI invocation did. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `docflow …args` in `cwd`; stdout and stderr are pipes, so not TTYs. */
export function docflow(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...options.env },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A temp directory holding `files` (name → content). */
export function workspace(files: Record<string, string> = {}): string {
  const dir = scratchDir('docflow-cli-');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** The EXTRACT step config of an invoice's number and total. */
export const INVOICE_EXTRACTOR = {
  extractorConfig: {
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: ['string', 'null'] },
        total: { type: ['number', 'null'] },
      },
    },
  },
};

/** A workflow that extracts an invoice and holds totals above 1000 for review. */
export const INVOICE_WORKFLOW = JSON.stringify({
  name: 'Invoices',
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'invoice' }] },
    {
      name: 'invoice',
      type: 'EXTRACT',
      config: INVOICE_EXTRACTOR,
      next: [{ step: 'checks' }],
    },
    {
      name: 'checks',
      type: 'RULE_VALIDATION',
      config: { rules: [{ name: 'under_limit', formula: 'invoice.total <= 1000' }] },
      next: [{ step: 'review', result: 'fail' }],
    },
    { name: 'review', type: 'HUMAN_REVIEW' },
  ],
});
