import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { runPackageDemo } from '../src/main.ts';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

it('runs a 10-file package through parse, extraction with citations and rules', async () => {
  const lines: string[] = [];
  const db = join(scratchDir('docflow-package-'), 'package.db');
  const { run, fields, allPassed } = await runPackageDemo(db, (l) => lines.push(l));
  expect(run.status).toBe('PROCESSED');
  expect(run.files.map((f) => f.type)).toEqual([
    'TXT',
    'TXT',
    'TXT',
    'TXT',
    'CSV',
    'TXT',
    'HTML',
    'CSV',
    'TXT',
    'TXT',
  ]);
  expect(fields).toEqual({
    company_name: { value: 'Northwind Traders GmbH', file: '02-registration.txt' },
    registration_number: { value: 'HRB 123456', file: '02-registration.txt' },
    vat_number: { value: 'DE811907980', file: '03-tax-certificate.txt' },
    iban: { value: 'DE89370400440532013000', file: '04-bank-letter.txt' },
    payment_terms: { value: '30 days net', file: '09-terms.txt' },
  });
  expect(allPassed).toBe(true);
  expect(lines[0]).toMatch(/PROCESSED: a package of 10 files/);
});
