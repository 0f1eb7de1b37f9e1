/**
 * The docflow demo: the main job, end to end, on SQLite. It runs the invoice intake of
 * examples/invoice-intake (the same workflow, packet, receiver and review) and prints a screen's
 * summary of it, or with `json` the whole run and the webhooks received.
 */
import { type IntakeResult, runInvoiceIntake } from '@docflow/example-invoice-intake';
import { renderSummary } from './render-summary.ts';

/** The demo's `--json` output: the whole run, and the webhook events the receiver verified. */
export function renderJson(result: IntakeResult): string {
  return JSON.stringify({ run: result.run, webhooks: result.webhooks }, null, 2);
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Print `{ run, webhooks }` as JSON instead of the summary. */
  readonly json?: boolean;
  /** Where the output goes, a line at a time. */
  readonly print?: (line: string) => void;
}

/** Runs the demo on the SQLite file at `dbPath`; resolves with what the intake returned. */
export async function runDemo(dbPath: string, options: DemoOptions = {}): Promise<IntakeResult> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  // The intake's own stage-by-stage log is for its example; the demo prints its summary.
  const result = await runInvoiceIntake(dbPath, () => {});
  if (options.json) {
    print(renderJson(result));
  } else {
    for (const line of renderSummary(result, dbPath)) print(line);
  }
  return result;
}
