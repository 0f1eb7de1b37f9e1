import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeOcrPool } from '@docflow/steps';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { renderJson, runDemo } from '../src/run-demo.ts';

afterAll(() => closeOcrPool());

it('shows the main job in a screen: the step tree, the invoices, the rules, the review, the webhooks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-demo-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const result = await runDemo(join(dir, 'demo.db'), { print: (line) => lines.push(line) });
  const text = lines.join('\n');
  expect(lines.length).toBeLessThan(60);

  // The tree: the packet's steps, one branch per document the split made, then the join.
  expect(text).toMatch(/^Run workflow_run_\w+: PROCESSED in [\d.]+ s$/m);
  expect(text).toMatch(/^├─ parse +PARSE +PROCESSED +\d+ ms +5 pages$/m);
  expect(text).toMatch(/^├─ split +SPLIT +PROCESSED +\d+ ms +4 documents$/m);
  const branches = lines.filter((l) => /^│ {2}├─ packet_/.test(l)).map((l) => l.slice(6));
  expect(branches).toEqual([
    'packet_1_invoice_p1-2.pdf',
    'packet_2_delivery_note_p3-3.pdf',
    'packet_3_invoice_p4-4.pdf',
    'packet_4_invoice_p5-5.pdf',
  ]);
  // The delivery note is told from the invoices beyond doubt (its title beside its number counts
  // once since decision 0050, so its confidence may round below 1).
  expect(text).toMatch(
    /classify +CLASSIFY +PROCESSED +\d+ ms +delivery_note \(confidence (1|0\.99\d*)\)/,
  );
  expect(text).toMatch(
    /checks +RULE_VALIDATION +PROCESSED +failed: total_adds_up → review; 4 of 4 rules pass after it/,
  );
  expect(text).toMatch(/review +HUMAN_REVIEW +PROCESSED +approved by ap-clerk@example\.com/);
  expect(text).toMatch(/invoice +EXTRACT +PROCESSED +\d+ ms +6 of 6 fields, corrected in review/);
  expect(text).toMatch(/^├─ collect +COLLECT +PROCESSED +4 documents joined$/m);
  expect(text).toMatch(
    /^└─ respond +WEBHOOK_RESPONSE +PROCESSED +sent workflow_run\.webhook_response$/m,
  );

  // The extracted fields, the correction beside the value it replaced.
  expect(text).toContain(
    '  INV-1001  Acme Office Supplies  2026-03-02      700.00   133.00    833.00',
  );
  expect(text).toContain(
    '  INV-1002  Globex Logistics      2026-03-04      480.00    91.20    571.20  (was 617.20)',
  );
  expect(text).toContain(
    '  INV-1003  Initech Consulting    2026-03-05    2,400.00   456.00  2,856.00',
  );
  // The rule results per invoice, with their formulas.
  expect(text).toMatch(
    /^ {2}total_adds_up +pass +FAIL→pass +pass +ROUND\(invoice\.subtotal \+ invoice\.tax, 2\) = ROUND\(invoice\.total, 2\)$/m,
  );
  expect(text).toMatch(/^ {2}positive_total +pass +pass +pass +invoice\.total > 0$/m);
  // The review the demo did itself, saying so.
  expect(text).toContain('The demo approved it');
  expect(text).toContain('correcting total 617.20 → 571.20 (subtotal + tax)');
  // The webhooks, each verified.
  expect(text).toContain('every signature checked with verifyWebhook (0 refused)');
  expect(text).toMatch(/^ {2}workflow_run\.needs_review +[\d.]+ KB +payload: the run$/m);
  expect(text).toMatch(
    /^ {2}workflow_run\.webhook_response +\d+ B +body: 4 documents, 3 invoices$/m,
  );
  expect(text).toMatch(/^ {2}workflow_run\.completed +[\d.]+ KB +payload: the run$/m);

  // --json: the whole run and the webhooks, as JSON.
  const json = JSON.parse(renderJson(result)) as {
    run: { id: string; status: string; stepRuns: unknown[] };
    webhooks: { eventType: string }[];
  };
  expect(json.run).toMatchObject({ id: result.run.id, status: 'PROCESSED' });
  expect(json.run.stepRuns).toHaveLength(result.run.stepRuns.length);
  expect(json.webhooks.map((w) => w.eventType).sort()).toEqual([
    'workflow_run.completed',
    'workflow_run.needs_review',
    'workflow_run.webhook_response',
  ]);
}, 120_000);
