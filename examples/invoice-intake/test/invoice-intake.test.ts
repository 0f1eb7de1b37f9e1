import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeOcrPool } from '@docflow/steps';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { runInvoiceIntake } from '../src/run-invoice-intake.ts';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

afterAll(() => closeOcrPool());

it('splits, classifies, extracts, validates, reviews and delivers the packet by signed webhook', async () => {
  const db = join(scratchDir('docflow-intake-'), 'intake.db');
  const lines: string[] = [];
  const result = await runInvoiceIntake(db, (l) => lines.push(l));

  // Split and classification: four parts, in packet order, the two-page invoice kept whole.
  expect(result.waiting.status).toBe('NEEDS_REVIEW');
  expect(result.parts.map((p) => [p.file, p.type])).toEqual([
    ['packet_1_invoice_p1-2.pdf', 'invoice'],
    ['packet_2_delivery_note_p3-3.pdf', 'delivery_note'],
    ['packet_3_invoice_p4-4.pdf', 'invoice'],
    ['packet_4_invoice_p5-5.pdf', 'invoice'],
  ]);
  // Only the invoice whose total does not add up went to review; the reviewer corrected it, and
  // its rules, evaluated again over the correction, pass.
  expect(result.parts.map((p) => [p.invoiceNumber, p.total, p.checks])).toEqual([
    ['INV-1001', 833, 'passed'],
    [null, null, '-'],
    ['INV-1002', 571.2, 'passed after review'],
    ['INV-1003', 2856, 'passed'],
  ]);
  expect(result.run.status).toBe('PROCESSED');
  expect(result.run.reviewedByUser).toBe('ap-clerk@example.com');

  // Webhooks: every request the receiver accepted was signed; none was refused.
  expect(result.rejectedWebhooks).toEqual([]);
  const types = result.webhooks.map((e) => e.eventType);
  expect(types).toEqual(
    expect.arrayContaining([
      'workflow_run.needs_review',
      'workflow_run.completed',
      'workflow_run.webhook_response',
    ]),
  );
  const response = result.webhooks.find((e) => e.eventType === 'workflow_run.webhook_response');
  const body = response?.payload.body as { documents: string[]; invoices: { total: number }[] };
  expect([...body.documents].sort()).toEqual(['delivery_note', 'invoice', 'invoice', 'invoice']);
  expect(body.invoices.map((i) => i.total).sort((a, b) => a - b)).toEqual([571.2, 833, 2856]);
}, 120_000);
