/**
 * The demo's screen: the run as a tree of step runs (status, time, what each found), the
 * extracted invoices, the rule results, the review and the webhooks received. Pure: it reads an
 * {@link IntakeResult} and returns lines.
 */
import type { StepRun, WorkflowRun } from '@docflow/engine';
import { type IntakeResult, intakeWorkflow, resultOf } from '@docflow/example-invoice-intake';

const ms = (from: string | null, to: string | null): number | undefined =>
  from && to ? Date.parse(to) - Date.parse(from) : undefined;

const seconds = (n: number | undefined) => (n === undefined ? '' : `${(n / 1000).toFixed(1)} s`);

const money = (n: unknown) =>
  typeof n === 'number'
    ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    : '-';

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

type RuleResult = { name: string; valid: boolean };

function rulesOf(
  step: StepRun | undefined,
  which: 'output' | 'initialOutput' = 'output',
): RuleResult[] {
  return ((step?.result?.[which] as { rules?: RuleResult[] } | undefined)?.rules ??
    []) as RuleResult[];
}

/** What a step run found, in a few words. */
function detail(step: StepRun): string {
  const result = step.result ?? {};
  switch (step.stepType) {
    case 'PARSE': {
      const usage = (result.parseRun as { usage?: { pages?: number } } | undefined)?.usage;
      return `${usage?.pages ?? '?'} pages`;
    }
    case 'SPLIT': {
      const splits = (result.splitRun as { output?: { splits?: unknown[] } } | undefined)?.output
        ?.splits;
      return `${splits?.length ?? 0} documents`;
    }
    case 'CLASSIFY': {
      const output = resultOf(step).classifyRun?.output as
        | { type?: string; confidence?: number }
        | undefined;
      return `${output?.type ?? '?'} (confidence ${output?.confidence ?? '?'})`;
    }
    case 'EXTRACT': {
      const extract = result.extractRun as { output?: { value?: object }; edited?: boolean };
      const value = (extract?.output?.value ?? {}) as Record<string, unknown>;
      const filled = Object.values(value).filter((v) => v !== null).length;
      return `${filled} of ${Object.keys(value).length} fields${extract?.edited ? ', corrected in review' : ''}`;
    }
    case 'RULE_VALIDATION': {
      // After a review the rules were evaluated again over the corrected outputs; the first
      // results are kept as initialOutput.
      const rules = rulesOf(step);
      const failedAt = (list: RuleResult[]) => list.filter((r) => !r.valid).map((r) => r.name);
      const failed = failedAt(rules);
      const failedFirst = failedAt(rulesOf(step, 'initialOutput'));
      const now =
        failed.length === 0
          ? `${rules.length} of ${rules.length} rules pass`
          : `failed: ${failed.join(', ')}`;
      return failedFirst.length > 0 && failed.length === 0
        ? `failed: ${failedFirst.join(', ')} → review; ${now} after it`
        : failed.length > 0
          ? `${now} → review`
          : now;
    }
    case 'HUMAN_REVIEW': {
      const output = result.output as { decision?: string; reviewer?: string } | undefined;
      return `${output?.decision === 'approve' ? 'approved' : 'rejected'} by ${output?.reviewer ?? '?'}`;
    }
    case 'COLLECT':
      return step.files.length > 1 ? `${step.files.length} documents joined` : '';
    case 'WEBHOOK_RESPONSE':
      return 'sent workflow_run.webhook_response';
    default:
      return '';
  }
}

/** Width of a step name in a document's branch; top-level names get the 6 columns of indent. */
const NAME = 9;

function stepLine(prefix: string, step: StepRun, nameWidth: number): string {
  const time = ms(step.startTime, step.endTime);
  return [
    `${prefix}${step.step.name.padEnd(nameWidth)}`,
    step.stepType.padEnd(16),
    step.status.padEnd(10),
    (time === undefined ? '' : `${time} ms`).padStart(8),
    ` ${detail(step)}`,
  ]
    .join(' ')
    .trimEnd();
}

/**
 * The run's step runs as a tree: the steps on the packet, then one branch per document the split
 * made, then the steps that joined them again.
 */
export function stepTree(run: WorkflowRun): string[] {
  const packetId = run.files[0]?.id;
  const onPacket = run.stepRuns.filter((s) => s.files.length === 1 && s.files[0]?.id === packetId);
  const joined = run.stepRuns.filter((s) => s.files.length > 1);
  const documents = new Map<string, { name: string; steps: StepRun[] }>();
  for (const step of run.stepRuns) {
    const [file, more] = step.files;
    if (!file || more || file.id === packetId) continue;
    const entry = documents.get(file.id) ?? { name: file.name, steps: [] };
    entry.steps.push(step);
    documents.set(file.id, entry);
  }
  const lines = onPacket.map((s) => stepLine('├─ ', s, NAME + 6));
  const branches = [...documents.values()].sort((a, b) => a.name.localeCompare(b.name));
  branches.forEach((doc) => {
    lines.push(`│  ├─ ${doc.name}`);
    doc.steps.forEach((s, i) => {
      lines.push(stepLine(`│  │  ${i === doc.steps.length - 1 ? '└─' : '├─'} `, s, NAME));
    });
  });
  joined.forEach((s, i) => {
    lines.push(stepLine(i === joined.length - 1 ? '└─ ' : '├─ ', s, NAME + 6));
  });
  return lines;
}

/** The demo's summary, in lines. */
export function renderSummary(result: IntakeResult, dbPath: string): string[] {
  const { run } = result;
  const lines: string[] = [
    `docflow demo: invoice intake on SQLite (${dbPath})`,
    'SPLIT → CLASSIFY → EXTRACT → RULE_VALIDATION → HUMAN_REVIEW → COLLECT → WEBHOOK_RESPONSE',
    '',
    `Run ${run.id}: ${run.status} in ${seconds(ms(run.startTime, run.endTime))}`,
    `${result.packet.name} (${size(result.packet.bytes)}: three invoices and a delivery note, made with pdf-lib)`,
    ...stepTree(run),
    '',
  ];

  const extracts = run.stepRuns.filter((s) => s.stepType === 'EXTRACT');
  lines.push('Extracted invoices (EXTRACT, offline provider)');
  lines.push(
    `  ${'number'.padEnd(10)}${'vendor'.padEnd(22)}${'date'.padEnd(12)}${'subtotal'.padStart(10)}${'tax'.padStart(9)}${'total'.padStart(10)}`,
  );
  const invoices: { number: string; checks: StepRun | undefined }[] = [];
  for (const extract of extracts) {
    const value = resultOf(extract).extractRun?.output?.value ?? {};
    const number = String(value.invoice_number ?? '?');
    const correction = result.corrections.find((c) => c.stepRunId === extract.id);
    invoices.push({
      number,
      checks: run.stepRuns.find(
        (s) => s.stepType === 'RULE_VALIDATION' && s.files[0]?.id === extract.files[0]?.id,
      ),
    });
    lines.push(
      `  ${number.padEnd(10)}${String(value.vendor ?? '-').padEnd(22)}${String(value.invoice_date ?? '-').padEnd(12)}${money(value.subtotal).padStart(10)}${money(value.tax).padStart(9)}${money(value.total).padStart(10)}${correction ? `  (was ${money(correction.from)})` : ''}`,
    );
  }
  lines.push('');

  const ruleStep = intakeWorkflow.find((s) => s.type === 'RULE_VALIDATION');
  const formulas =
    (ruleStep?.config as { rules?: { name: string; formula: string }[] } | undefined)?.rules ?? [];
  lines.push(
    `Rules (RULE_VALIDATION)   ${invoices.map((i) => i.number.padEnd(10)).join('')}`.trimEnd(),
  );
  for (const rule of formulas) {
    const cells = invoices.map((i) => {
      const found = rulesOf(i.checks).find((r) => r.name === rule.name);
      const first = rulesOf(i.checks, 'initialOutput').find((r) => r.name === rule.name);
      const mark = found === undefined ? '-' : found.valid ? 'pass' : 'FAIL';
      return (first !== undefined && !first.valid && found?.valid ? 'FAIL→pass' : mark).padEnd(10);
    });
    lines.push(`  ${rule.name.padEnd(24)}${cells.join('')}${rule.formula}`);
  }
  lines.push('');

  for (const c of result.corrections) {
    lines.push(
      `Review: ${c.invoiceNumber} failed a rule, so the run waited in NEEDS_REVIEW. The demo approved it`,
      `itself as ${run.reviewedByUser}, correcting ${c.field} ${money(c.from)} → ${money(c.to)} (subtotal + tax).`,
      '',
    );
  }

  lines.push(
    `Webhooks received by a local receiver, every signature checked with verifyWebhook (${result.rejectedWebhooks.length} refused):`,
  );
  for (const event of result.webhooks) {
    const body = event.payload.body as { documents?: unknown[]; invoices?: unknown[] } | undefined;
    const about = body
      ? `body: ${body.documents?.length ?? 0} documents, ${body.invoices?.length ?? 0} invoices`
      : `payload: the ${event.eventType === 'workflow_run.step_run.processed' ? 'step run' : 'run'}`;
    lines.push(
      `  ${event.eventType.padEnd(31)}${size(JSON.stringify(event).length).padStart(8)}   ${about}`,
    );
  }
  lines.push('', 'The whole run as JSON: pnpm -s demo --json. The code: examples/invoice-intake.');
  return lines;
}
