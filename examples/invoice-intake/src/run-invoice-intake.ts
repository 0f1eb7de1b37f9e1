/**
 * Invoice intake, end to end: a packet PDF (three invoices and a delivery note, generated with
 * pdf-lib) is split, each part classified and routed, invoices extracted and checked by
 * formulas; the one whose total does not add up waits for review and is approved from code with
 * a correction; the collected result is delivered by signed webhook to a local receiver that
 * verifies the signature.
 */
import {
  createEngine,
  type EngineEvent,
  type ReviewOutput,
  type WorkflowRun,
} from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { intakeWorkflow } from './intake-workflow.ts';
import { makePacket } from './make-packet.ts';
import { onSameFile, type PartSummary, resultOf, summarizeParts } from './summarize-parts.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/** A correction the reviewer made before approving. */
export interface Correction {
  readonly invoiceNumber: string;
  readonly stepRunId: string;
  readonly field: 'total';
  readonly from: number;
  readonly to: number;
}

/** What the intake returns (its test and the demo read it). */
export interface IntakeResult {
  /** The run when it stopped for review. */
  readonly waiting: WorkflowRun;
  /** The run after the review, finished. */
  readonly run: WorkflowRun;
  readonly parts: PartSummary[];
  readonly corrections: Correction[];
  /** Authentic webhook events the receiver got, in arrival order. */
  readonly webhooks: EngineEvent[];
  /** Requests the receiver refused (their verification error codes). */
  readonly rejectedWebhooks: string[];
  /** The packet PDF as uploaded. */
  readonly packet: { readonly name: string; readonly bytes: number };
}

/** Runs the intake on SQLite at `dbPath`, telling `log` what happens. */
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

    const bytes = await makePacket();
    const packet = await engine.files.upload({ name: 'packet.pdf', data: bytes });
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
    const corrections: Correction[] = [];
    for (const step of waiting.stepRuns.filter((s) => s.step.name === 'checks')) {
      if (resultOf(step).output?.allPassed !== false) continue;
      const extract = onSameFile(waiting, step, 'invoice');
      const output = resultOf(extract).extractRun?.output;
      if (!extract || !output) continue;
      const { subtotal, tax, total: from } = output.value as Record<string, number>;
      const total = Math.round(((subtotal ?? 0) + (tax ?? 0)) * 100) / 100;
      const invoiceNumber = String(output.value.invoice_number);
      log(`  reviewer corrects ${invoiceNumber}: total ${total}`);
      outputs.push({
        stepRunId: extract.id,
        output: { ...output, value: { ...output.value, total } },
      });
      corrections.push({
        invoiceNumber,
        stepRunId: extract.id,
        field: 'total',
        from: from ?? NaN,
        to: total,
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
      corrections,
      webhooks: [...receiver.events],
      rejectedWebhooks: [...receiver.rejected],
      packet: { name: packet.name, bytes: bytes.length },
    };
  } finally {
    await engine.stop();
    await receiver.close();
  }
}
