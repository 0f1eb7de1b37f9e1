/**
 * Invoice intake, end to end: a packet PDF (three invoices and a delivery note, generated with
 * pdf-lib) is split, each part classified and routed, invoices extracted and checked by
 * formulas; the one whose total does not add up waits for review and is approved from code with
 * a correction; the collected result is delivered by signed webhook to a local receiver that
 * verifies the signature. Run it with `pnpm --filter @docflow/example-invoice-intake start`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  type EngineEvent,
  type ReviewOutput,
  type StepRun,
  type WorkflowRun,
} from '@docflow/engine';
import { builtinSteps, closeOcrPool } from '@docflow/steps';
import type { JsonValue } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { intakeWorkflow } from './intake-workflow.ts';
import { makePacket } from './make-packet.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/** One part of the packet as the run saw it. */
export interface PartSummary {
  readonly file: string;
  readonly type: string;
  readonly invoiceNumber: string | null;
  readonly total: number | null;
  readonly checks: 'passed' | 'failed' | '-';
}

/** What the demo returns (its test checks it). */
export interface IntakeResult {
  readonly waiting: WorkflowRun;
  readonly run: WorkflowRun;
  readonly parts: PartSummary[];
  readonly webhooks: EngineEvent[];
  readonly rejectedWebhooks: string[];
}

type ExtractOutput = { value: Record<string, JsonValue>; metadata?: JsonValue };

const resultOf = (step: StepRun | undefined) =>
  (step?.result ?? {}) as {
    output?: { id?: string; type?: string; allPassed?: boolean };
    classifyRun?: { output?: { type?: string } };
    extractRun?: { output?: ExtractOutput };
  };

/** The per-part summary: the CLASSIFY, EXTRACT and RULE_VALIDATION step runs of each file. */
export function summarizeParts(run: WorkflowRun): PartSummary[] {
  const classifies = run.stepRuns.filter((s) => s.step.name === 'classify');
  return classifies.map((classify) => {
    const fileId = classify.files[0]?.id;
    const onFile = (name: string) =>
      run.stepRuns.find((s) => s.step.name === name && s.files[0]?.id === fileId);
    const value = resultOf(onFile('invoice')).extractRun?.output?.value;
    const checks = resultOf(onFile('checks')).output;
    return {
      file: classify.files[0]?.name ?? '?',
      type: resultOf(classify).classifyRun?.output?.type ?? resultOf(classify).output?.type ?? '?',
      invoiceNumber: typeof value?.invoice_number === 'string' ? value.invoice_number : null,
      total: typeof value?.total === 'number' ? value.total : null,
      checks: checks === undefined ? '-' : checks.allPassed ? 'passed' : 'failed',
    };
  });
}

/** Runs the intake on SQLite at `dbPath`. */
export async function runInvoiceIntake(
  dbPath: string,
  log: (line: string) => void = console.log,
): Promise<IntakeResult> {
  const receiver = await startWebhookReceiver();
  const engine = createEngine({
    storage: sqliteStorage({ path: dbPath }),
    steps: builtinSteps(),
    // The receiver is this script on 127.0.0.1, which the URL policy refuses unless told.
    webhooks: { urlPolicy: { allowLoopback: true } },
  });
  await engine.start();
  try {
    const workflow = await engine.workflows.create({
      name: 'Invoice intake',
      steps: intakeWorkflow,
    });
    await engine.workflows.deploy(workflow.id);

    const endpoint = await engine.webhookEndpoints.create({
      url: receiver.url,
      name: 'accounts payable',
      enabledEvents: [],
    });
    receiver.secret = endpoint.signingSecret; // shown once: store it with the receiver
    await engine.webhookSubscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: workflow.id,
      enabledEvents: ['workflow_run.completed', 'workflow_run.failed', 'workflow_run.needs_review'],
    });

    const packet = await engine.files.upload({ name: 'packet.pdf', data: await makePacket() });
    const created = await engine.workflowRuns.create({
      workflow: { id: workflow.id },
      file: { id: packet.id },
    });
    const waiting = await engine.workflowRuns.waitFor(created.id, { timeoutMs: 120_000 });
    log(`run ${waiting.id}: ${waiting.status}`);
    for (const part of summarizeParts(waiting)) {
      log(
        `  ${part.file.padEnd(34)} ${part.type.padEnd(14)} ${String(part.invoiceNumber ?? '').padEnd(9)} ${String(part.total ?? '').padStart(8)}  checks ${part.checks}`,
      );
    }
    await receiver.waitFor('workflow_run.needs_review');
    log('  webhook workflow_run.needs_review received and verified');

    // The reviewer's correction: the failing invoice's total is subtotal + tax.
    const outputs: ReviewOutput[] = [];
    for (const step of waiting.stepRuns.filter((s) => s.step.name === 'checks')) {
      if (resultOf(step).output?.allPassed !== false) continue;
      const extract = waiting.stepRuns.find(
        (s) => s.step.name === 'invoice' && s.files[0]?.id === step.files[0]?.id,
      );
      const output = resultOf(extract).extractRun?.output;
      if (!extract || !output) continue;
      const { subtotal, tax } = output.value as { subtotal: number; tax: number };
      const total = Math.round((subtotal + tax) * 100) / 100;
      log(`  reviewer corrects ${String(output.value.invoice_number)}: total ${total}`);
      outputs.push({
        stepRunId: extract.id,
        output: { ...output, value: { ...output.value, total } },
      });
    }
    await engine.workflowRuns.review(waiting.id, {
      decision: 'approve',
      reviewer: 'ap-clerk@example.com',
      outputs,
    });
    const run = await engine.workflowRuns.waitFor(waiting.id, { timeoutMs: 60_000 });
    log(`run ${run.id}: ${run.status} (reviewed by ${run.reviewedByUser})`);

    const completed = await receiver.waitFor('workflow_run.completed');
    const response = await receiver.waitFor('workflow_run.webhook_response');
    log(`  webhook ${completed.eventType} received and verified`);
    log(
      `  webhook ${response.eventType} received and verified (${JSON.stringify(response.payload).length} bytes)`,
    );
    log(JSON.stringify(response.payload.body, null, 2));
    return {
      waiting,
      run,
      parts: summarizeParts(run),
      webhooks: [...receiver.events],
      rejectedWebhooks: [...receiver.rejected],
    };
  } finally {
    await engine.stop();
    await receiver.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const db = process.argv[2] ?? join(process.cwd(), 'docflow-invoice-intake.db');
  runInvoiceIntake(db)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => closeOcrPool());
}
