/**
 * A package run: ten files of a supplier-onboarding package (text, CSV, HTML) enter one
 * workflow run together; PARSE reads every file, EXTRACT pulls the supplier's fields from
 * across the package (each value cites the file it came from) and RULE_VALIDATION checks them.
 * Run it with `pnpm --filter @docflow/example-package-run start`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type StepDefinition, type WorkflowRun } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';

/** The ten files of the package: name and content, generated here rather than shipped. */
export function onboardingPackage(): { name: string; text: string }[] {
  return [
    {
      name: '01-cover-letter.txt',
      text: 'Dear procurement team,\nplease find our onboarding documents attached.\nKind regards',
    },
    {
      name: '02-registration.txt',
      text: 'Certificate of registration\nCompany name: Northwind Traders GmbH\nRegistration number: HRB 123456',
    },
    {
      name: '03-tax-certificate.txt',
      text: 'Tax office Berlin\nVAT number: DE811907980\nValid from: 2024-01-01',
    },
    {
      name: '04-bank-letter.txt',
      text: 'Bank confirmation\nAccount holder: Northwind Traders GmbH\nIBAN: DE89370400440532013000',
    },
    {
      name: '05-contacts.csv',
      text: 'role,name,email\nsales,Ana Lopez,ana@northwind.example\nbilling,Bo Chen,billing@northwind.example\n',
    },
    {
      name: '06-insurance.txt',
      text: 'Liability insurance\nInsurer: Allsafe AG\nCoverage: 2000000 EUR',
    },
    {
      name: '07-quality.html',
      text: '<html><body><h1>ISO 9001 certificate</h1><p>Certificate number: Q-5521</p></body></html>',
    },
    { name: '08-price-list.csv', text: 'item,price\nwidget,4.50\ngadget,12.00\n' },
    { name: '09-terms.txt', text: 'General terms\nPayment terms: 30 days net\nDelivery: DAP' },
    {
      name: '10-signature.txt',
      text: 'Signed for Northwind Traders GmbH\nSignatory: Ana Lopez\nDate: 2026-01-15',
    },
  ];
}

/** TRIGGER → PARSE → EXTRACT (across all files) → RULE_VALIDATION. */
export const onboardingWorkflow: StepDefinition[] = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'supplier' }] },
  {
    name: 'supplier',
    type: 'EXTRACT',
    config: {
      extractorConfig: {
        advancedOptions: { citationsEnabled: true },
        schema: {
          type: 'object',
          properties: {
            company_name: { type: ['string', 'null'] },
            registration_number: { type: ['string', 'null'] },
            vat_number: { type: ['string', 'null'] },
            iban: { type: ['string', 'null'] },
            payment_terms: { type: ['string', 'null'] },
          },
        },
      },
    },
    next: [{ step: 'checks' }],
  },
  {
    name: 'checks',
    type: 'RULE_VALIDATION',
    config: {
      rules: [
        { name: 'named', formula: 'ISPRESENT(supplier.company_name)' },
        {
          name: 'vat_format',
          formula: 'REGEXMATCH(supplier.vat_number, "^[A-Z]{2}[0-9A-Z]{8,12}$")',
        },
        { name: 'iban_length', formula: 'LEN(supplier.iban) >= 15' },
      ],
    },
  },
];

/** What the demo prints and its test checks. */
export interface PackageRunResult {
  readonly run: WorkflowRun;
  /** Extracted field → value and the name of the file it was found in. */
  readonly fields: Record<string, { value: unknown; file: string | null }>;
  readonly allPassed: boolean;
}

/** Uploads the package, runs the workflow on SQLite at `dbPath` and prints what it found. */
export async function runPackageDemo(
  dbPath: string,
  log: (line: string) => void = console.log,
): Promise<PackageRunResult> {
  const engine = createEngine({ storage: sqliteStorage({ path: dbPath }), steps: builtinSteps() });
  await engine.start();
  try {
    const files = [];
    for (const { name, text } of onboardingPackage()) {
      files.push(await engine.files.upload({ name, data: new TextEncoder().encode(text) }));
    }
    const workflow = await engine.workflows.create({
      name: 'Supplier onboarding package',
      steps: onboardingWorkflow,
    });
    await engine.workflows.deploy(workflow.id);
    const created = await engine.workflowRuns.create({
      workflow: { id: workflow.id },
      package: { files: files.map((f) => ({ id: f.id })) },
    });
    const run = await engine.workflowRuns.waitFor(created.id, { timeoutMs: 60_000 });

    log(`run ${run.id} ${run.status}: a package of ${run.files.length} files`);
    for (const f of run.files) log(`  ${f.type ?? '?'}\t${f.name}`);
    const extract = run.stepRuns.find((s) => s.step.name === 'supplier')?.result as
      | { extractRun?: { output?: ExtractOutput } }
      | undefined;
    const output = extract?.extractRun?.output;
    const nameOf = new Map(files.map((f) => [f.id, f.name]));
    const fields: PackageRunResult['fields'] = {};
    for (const [key, value] of Object.entries(output?.value ?? {})) {
      const fileId = output?.metadata?.[key]?.citations?.[0]?.fileId;
      fields[key] = { value, file: fileId === undefined ? null : (nameOf.get(fileId) ?? fileId) };
      log(
        `  ${key.padEnd(20)} ${JSON.stringify(value).padEnd(28)} from ${fields[key].file ?? '-'}`,
      );
    }
    const checks = run.stepRuns.find((s) => s.step.name === 'checks')?.result as
      | { output?: { allPassed?: boolean; rules?: { name: string; valid: boolean }[] } }
      | undefined;
    const allPassed = checks?.output?.allPassed === true;
    for (const rule of checks?.output?.rules ?? []) {
      log(`  rule ${rule.name}: ${rule.valid ? 'pass' : 'FAIL'}`);
    }
    return { run, fields, allPassed };
  } finally {
    await engine.stop();
  }
}

interface ExtractOutput {
  value?: Record<string, unknown>;
  metadata?: Record<string, { citations?: { fileId?: string }[] } | undefined>;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const db = process.argv[2] ?? join(process.cwd(), 'docflow-package-run.db');
  runPackageDemo(db).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
