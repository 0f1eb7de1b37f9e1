/** The CLI end to end: every command in a subprocess, checking output and exit codes. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it } from 'vitest';
import { docflow, INVOICE_WORKFLOW, workspace } from './run-cli.ts';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const ESC = '\u001b[';

describe.concurrent('docflow', () => {
  it('prints help and version (exit 0); usage errors exit 2', async () => {
    const dir = workspace();
    const help = await docflow(['--help'], { cwd: dir });
    expect(help.code).toBe(0);
    for (const command of ['run', 'validate', 'parse', 'runs', 'formula']) {
      expect(help.stdout).toContain(command);
    }
    const version = await docflow(['--version'], { cwd: dir });
    expect(version).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
    const unknown = await docflow(['bogus'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'bogus'");
    const missing = await docflow(['validate'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'workflow'");
    const none = await docflow([], { cwd: dir });
    expect(none.code).toBe(2);
    const group = await docflow(['runs'], { cwd: dir });
    expect(group.code).toBe(2);
  });

  it('validate lists every issue with its path and exits 1; a valid file exits 0', async () => {
    const dir = workspace({
      'ok.json': INVOICE_WORKFLOW,
      'bad.json': JSON.stringify({
        steps: [
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'nowhere' }] },
          { name: 'x', type: 'EXTRACT' },
          {
            name: 'x',
            type: 'RULE_VALIDATION',
            config: { rules: [{ name: 'r', formula: 'SUM(' }] },
          },
        ],
      }),
      'broken.json': '{ "steps": [',
    });
    const ok = await docflow(['validate', 'ok.json'], { cwd: dir });
    expect(ok).toMatchObject({ code: 0, stdout: '✓ ok.json: valid (5 steps)\n' });
    const bad = await docflow(['validate', 'bad.json'], { cwd: dir });
    expect(bad.code).toBe(1);
    for (const path of [
      'steps[0].next[0].step',
      'steps[1].config',
      'steps[2].name',
      'steps[2].config.rules[0].formula',
    ]) {
      expect(bad.stderr).toContain(path);
    }
    const json = await docflow(['validate', 'bad.json', '--json'], { cwd: dir });
    const parsed = JSON.parse(json.stdout) as { valid: boolean; issues: { code: string }[] };
    expect(parsed.valid).toBe(false);
    expect(parsed.issues.map((i) => i.code)).toContain('UNKNOWN_STEP');
    const broken = await docflow(['validate', 'broken.json'], { cwd: dir });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /broken\.json is not valid JSON at line 1, column 13: expected '\]': the file ends too early/,
    );
  });

  it('parse prints markdown or JSON; an unreadable file exits 1 with its reason', async () => {
    const dir = workspace({
      'note.txt': 'Invoice number: INV-9\nTotal: 12.00 EUR\n',
      'broken.pdf': '%PDF-1.4 garbage',
    });
    const md = await docflow(['parse', 'note.txt'], { cwd: dir });
    expect(md).toMatchObject({ code: 0, stdout: 'Invoice number: INV-9\nTotal: 12.00 EUR\n' });
    const json = await docflow(['parse', 'note.txt', '--json'], { cwd: dir });
    const output = JSON.parse(json.stdout) as { output: { chunks: { content: string }[] } };
    expect(output.output.chunks[0]?.content).toContain('INV-9');
    const corrupt = await docflow(['parse', 'broken.pdf'], { cwd: dir });
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain('CORRUPT_FILE');
    const missing = await docflow(['parse', 'nope.txt'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read nope.txt');
  });

  it('formula evaluates with --data; errors point at the column and exit 1', async () => {
    const dir = workspace({
      'data.json': JSON.stringify({
        invoice: { total: 30, lines: [{ amount: 10 }, { amount: 20 }] },
      }),
      'list.json': '[1, 2]',
    });
    const sum = await docflow(
      ['formula', 'SUM(invoice.lines.amount) = invoice.total', '--data', 'data.json'],
      { cwd: dir },
    );
    expect(sum).toMatchObject({ code: 0, stdout: 'TRUE\n' });
    const items = await docflow(['formula', 'invoice.lines.amount * 2', '--data', 'data.json'], {
      cwd: dir,
    });
    expect(items.stdout).toBe('[20,40]\n');
    const parseError = await docflow(['formula', 'SUM(1'], { cwd: dir });
    expect(parseError.code).toBe(1);
    expect(parseError.stderr).toContain('PARSE_ERROR');
    expect(parseError.stderr).toContain('  SUM(1\n       ^');
    const notObject = await docflow(['formula', '1', '--data', 'list.json'], { cwd: dir });
    expect(notObject.code).toBe(1);
    expect(notObject.stderr).toContain('must hold a JSON object');
  });

  it('colours only when asked: none in pipes or with NO_COLOR, some with FORCE_COLOR', async () => {
    const dir = workspace();
    const plain = await docflow(['formula', 'SUM(1'], { cwd: dir });
    expect(plain.stderr).toContain('PARSE_ERROR');
    expect(plain.stderr).not.toContain(ESC);
    const forced = await docflow(['formula', 'SUM(1'], { cwd: dir, env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain(`${ESC}31mPARSE_ERROR`);
    const both = await docflow(['formula', 'SUM(1'], {
      cwd: dir,
      env: { FORCE_COLOR: '1', NO_COLOR: '1' },
    });
    expect(both.stderr).not.toContain(ESC);
  });
});

describe('docflow run and runs', () => {
  it('runs files, stores runs in ./docflow.db, lists, reviews, cancels and gets them', async () => {
    const dir = workspace({
      'workflow.json': INVOICE_WORKFLOW,
      'small.txt': 'Invoice number: INV-1\nTotal: 120.00 EUR\n',
      'large.txt': 'Invoice number: INV-2\nTotal: 5400.00 EUR\n',
    });
    const run = await docflow(['run', 'workflow.json', 'small.txt', 'large.txt'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'docflow.db'))).toBe(true);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^FILE\s+RUN\s+STATUS\s+STEPS\s+DETAIL$/);
    expect(lines[1]).toMatch(/^small\.txt\s+workflow_run_\w+\s+PROCESSED\s+4$/);
    expect(lines[2]).toMatch(
      /^large\.txt\s+workflow_run_\w+\s+NEEDS_REVIEW\s+4\s+waiting for review; failed rules: under_limit$/,
    );
    // Not a TTY: one line per finished run instead of bars.
    expect(run.stderr).toContain('small.txt: PROCESSED');

    const waiting = await docflow(['runs', 'list', '--status', 'NEEDS_REVIEW', '--json'], {
      cwd: dir,
    });
    const [held] = (JSON.parse(waiting.stdout) as { data: { id: string }[] }).data;
    expect(held?.id).toMatch(/^workflow_run_/);
    const id = held?.id ?? '';

    const noDecision = await docflow(['runs', 'review', id, '--reviewer', 'a@example.com'], {
      cwd: dir,
    });
    expect(noDecision.code).toBe(2);
    const approved = await docflow(
      ['runs', 'review', id, '--approve', '--reviewer', 'cfo@example.com'],
      { cwd: dir },
    );
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`${id}  PROCESSED`);
    expect(approved.stdout).toMatch(/review\s+HUMAN_REVIEW\s+PROCESSED/);
    const again = await docflow(
      ['runs', 'review', id, '--approve', '--reviewer', 'x@example.com'],
      {
        cwd: dir,
      },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('error:');

    const json = await docflow(['run', 'workflow.json', 'large.txt', '--json'], { cwd: dir });
    const [second] = JSON.parse(json.stdout) as { id: string; status: string }[];
    expect(second?.status).toBe('NEEDS_REVIEW');
    const cancelled = await docflow(['runs', 'cancel', second?.id ?? ''], { cwd: dir });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain('CANCELLED');

    const list = await docflow(['runs', 'list'], { cwd: dir });
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(4);
    const got = await docflow(['runs', 'get', id, '--json'], { cwd: dir });
    expect(JSON.parse(got.stdout)).toMatchObject({ id, reviewedByUser: 'cfo@example.com' });
    const unknown = await docflow(['runs', 'get', 'workflow_run_nope'], { cwd: dir });
    expect(unknown.code).toBe(1);
    const badStatus = await docflow(['runs', 'list', '--status', 'DONE'], { cwd: dir });
    expect(badStatus.code).toBe(2);
  }, 240_000);

  it('refuses to run or list beside an engine that holds the database, naming its process', async () => {
    const dir = workspace({ 'workflow.json': INVOICE_WORKFLOW, 'a.txt': 'Invoice INV-1 Total 10' });
    const holder = sqliteStorage({ path: join(dir, 'docflow.db') });
    await holder.open();
    try {
      for (const args of [
        ['runs', 'list'],
        ['run', 'workflow.json', 'a.txt'],
      ]) {
        const result = await docflow(args, { cwd: dir });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          new RegExp(`docflow\\.db is in use by process ${process.pid} on `),
        );
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      await holder.close();
    }
    expect((await docflow(['runs', 'list'], { cwd: dir })).code).toBe(0);
  });

  it('exits 1 when a run fails and names the reason; --db picks the database', async () => {
    const dir = workspace({ 'workflow.json': INVOICE_WORKFLOW, 'broken.pdf': '%PDF-1.4 garbage' });
    const run = await docflow(['--db', 'other.db', 'run', 'workflow.json', 'broken.pdf'], {
      cwd: dir,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/broken\.pdf\s+workflow_run_\w+\s+FAILED\s+1\s+CORRUPT_FILE/);
    expect(existsSync(join(dir, 'other.db'))).toBe(true);
    expect(existsSync(join(dir, 'docflow.db'))).toBe(false);
    const late = await docflow(['run', 'workflow.json', 'broken.pdf', '--timeout', '1'], {
      cwd: dir,
    });
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/did not settle within 1 ms; it is stored/);
    const badPriority = await docflow(['run', 'workflow.json', 'broken.pdf', '--priority', '0'], {
      cwd: dir,
    });
    expect(badPriority.code).toBe(2);
  });
});
