/** The `docflow` command line: commands, options and help, on commander. */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliContext } from './cli-context.ts';
import { addProviderOptions, type ProviderFlags, providerSettings } from './provider-options.ts';

// Commands load on use: `--help` should not pay for the engine, the parsers or SQLite.
const commands = {
  run: () => import('./commands/run-command.ts'),
  validate: () => import('./commands/validate-command.ts'),
  parse: () => import('./commands/parse-command.ts'),
  runs: () => import('./commands/runs-command.ts'),
  formula: () => import('./commands/formula-command.ts'),
  serve: () => import('./commands/serve-command.ts'),
  apiKeys: () => import('./commands/api-keys-command.ts'),
};

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

function integer(min: number, max: number) {
  return (text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    }
    return value;
  };
}

/**
 * Builds the program. Each action stores its exit code in `exit.code`; commander's own errors
 * (unknown option, missing argument) are left to the caller, which maps them to exit code 2.
 */
export function createProgram(context: CliContext, exit: { code: number }): Command {
  const program = new Command('docflow')
    .description(
      'Run and inspect docflow document workflows on a local SQLite database, or serve them over HTTP.',
    )
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--db <path>', 'SQLite database file', 'docflow.db')
    .option(
      '--postgres <url>',
      'keep runs in PostgreSQL instead (postgres://user:password@host:port/database); several processes may share it',
    )
    .option('--postgres-schema <name>', 'the schema of --postgres', 'docflow')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => context.stdout.write(s),
      writeErr: (s) => context.stderr.write(s),
      outputError: (s, write) => write(context.err.red(s)),
    })
    .exitOverride();
  addProviderOptions(program);
  const db = (command: Command) => (command.optsWithGlobals() as { db?: string }).db;
  const storageFlags = (command: Command) => {
    const { postgres, postgresSchema } = command.optsWithGlobals() as {
      postgres?: string;
      postgresSchema?: string;
    };
    return postgres === undefined ? {} : { postgres, postgresSchema };
  };
  /** The storage flags and the model provider, for commands that open an engine (which resumes runs). */
  const engineOptions = (command: Command) => ({
    db: db(command),
    ...storageFlags(command),
    provider: providerSettings(command.optsWithGlobals() as ProviderFlags),
  });

  program
    .command('run')
    .description('deploy a workflow and run it on files, with progress and a summary')
    .argument('<workflow>', 'workflow file: { "name"?, "steps": [...] } or a steps array')
    .argument('<files...>', 'files to process, one run each')
    .option('--package', 'run all files together as one package run (2 to 50 files)')
    .addOption(
      new Option('--priority <n>', 'run priority, 1 (first) to 100').argParser(integer(1, 100)),
    )
    .addOption(
      new Option('--timeout <ms>', 'give up waiting after this long')
        .argParser(integer(1, 86_400_000))
        .default(600_000),
    )
    .option('--json', 'print the finished runs as JSON (no progress)')
    .option('--no-progress', 'no progress display on stderr')
    .addHelpText(
      'after',
      '\nExit code 0 when every run is PROCESSED or NEEDS_REVIEW, 1 when one FAILED, was REJECTED or CANCELLED.',
    )
    .action(async (workflow: string, files: string[], options, command: Command) => {
      exit.code = await (await commands.run()).runCommand(context, workflow, files, {
        ...options,
        ...engineOptions(command),
      });
    });

  program
    .command('validate')
    .description('check a workflow definition; lists every issue with its path')
    .argument('<workflow>', 'workflow file')
    .option('--json', 'print { valid, issues } as JSON')
    .action(async (workflow: string, options) => {
      exit.code = await (await commands.validate()).validateCommand(context, workflow, options);
    });

  program
    .command('parse')
    .description('parse a file (PDF, image, DOCX, XLSX, CSV, HTML, XML, text) to markdown')
    .argument('<file>', 'the file')
    .addOption(
      new Option('--chunking <strategy>', 'how to chunk').choices(['page', 'document', 'section']),
    )
    .option('--json', 'print the whole parse output (chunks, blocks, metadata) as JSON')
    .option('--no-progress', 'no page progress on stderr')
    .action(async (file: string, options) => {
      exit.code = await (await commands.parse()).parseCommand(context, file, options);
    });

  const runs = program.command('runs').description('list, inspect, cancel and review stored runs');
  runs
    .command('list')
    .description('the most recent runs, newest first')
    .addOption(new Option('--status <status>', 'only runs in this status'))
    .option('--workflow <id>', 'only runs of this workflow')
    .addOption(
      new Option('--limit <n>', 'at most this many runs').argParser(integer(1, 1000)).default(20),
    )
    .option('--json', 'print the list as JSON')
    .action(async (options, command: Command) => {
      exit.code = await (await commands.runs()).runsListCommand(context, {
        ...options,
        ...engineOptions(command),
      });
    });
  runs
    .command('get')
    .description('one run with its step runs')
    .argument('<id>', 'run id (workflow_run_…)')
    .option('--json', 'print the run as JSON')
    .action(async (id: string, options, command: Command) => {
      exit.code = await (await commands.runs()).runsGetCommand(context, id, {
        ...options,
        ...engineOptions(command),
      });
    });
  runs
    .command('cancel')
    .description('cancel a run and wait until its steps have stopped')
    .argument('<id>', 'run id')
    .option('--json', 'print the run as JSON')
    .action(async (id: string, options, command: Command) => {
      exit.code = await (await commands.runs()).runsCancelCommand(context, id, {
        ...options,
        ...engineOptions(command),
      });
    });
  runs
    .command('review')
    .description('approve or reject a run waiting for review, then see it through')
    .argument('<id>', 'run id')
    .option('--approve', 'approve: the run carries on')
    .option('--reject', 'reject: the run ends REJECTED')
    .requiredOption('--reviewer <email>', "the reviewer's e-mail address")
    .option('--note <text>', 'a note (the rejection reason)')
    .option('--outputs <file>', 'corrected outputs: JSON array of { stepName | stepRunId, output }')
    .option('--json', 'print the run as JSON')
    .action(async (id: string, options, command: Command) => {
      exit.code = await (await commands.runs()).runsReviewCommand(context, id, {
        ...options,
        ...engineOptions(command),
      });
    });

  program
    .command('serve')
    .description('serve the HTTP interface (one engine per workspace) until SIGTERM or SIGINT')
    .addOption(new Option('--port <n>', 'TCP port').argParser(integer(0, 65_535)).default(8080))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option(
      '--header-prefix <word>',
      'the word in header names: x-<word>-api-version, x-<word>-workspace-id, webhook signatures (default: service)',
      'extend',
    )
    .option(
      '--public-url <url>',
      'the origin clients reach the server by, for presigned and webhook payload URLs',
    )
    .addOption(
      new Option('--max-upload-mb <n>', 'largest upload in MB (default 100)').argParser(
        integer(1, 10_240),
      ),
    )
    .addOption(
      new Option(
        '--rate-limit <n>',
        'requests per key per minute (0: no limit; default 1000 per 10 s)',
      ).argParser(integer(0, 10_000_000)),
    )
    .option('--quiet', 'no request logs on stderr')
    .option(
      '--allow-loopback',
      "let runs' document URLs, webhooks and EXTERNAL_DATA_VALIDATION reach this machine (a file server or receiver in development)",
    )
    .option(
      '--allow-private',
      "let runs' document URLs, webhooks and EXTERNAL_DATA_VALIDATION reach private networks",
    )
    .addHelpText(
      'after',
      '\nThe registry (organizations, workspaces, key hashes) is --db; each workspace has its own database in <db>.workspaces/, or with --postgres a schema of its own (<postgres-schema>_ws_<digest>), which several server processes may share.\nCreate keys with `docflow api-keys create`. Point the service SDK at the printed URL with baseUrl.',
    )
    .action(async (options, command: Command) => {
      exit.code = await (await commands.serve()).serveCommand(context, {
        ...options,
        ...engineOptions(command),
      });
    });

  const apiKeys = program
    .command('api-keys')
    .description("create, list and revoke the server's API keys");
  apiKeys
    .command('create')
    .description('make a key (and its organization and workspace when new); prints it once')
    .option('--workspace <name>', 'the workspace the key works for (required for a workspace key)')
    .option('--organization <name>', 'the organization of the workspace', 'default')
    .addOption(
      new Option(
        '--scope <scope>',
        'workspace: one workspace; organization: all, with the workspace header',
      )
        .choices(['workspace', 'organization'])
        .default('workspace'),
    )
    .option('--name <name>', "the key's name in lists")
    .option('--json', 'print one line: {"key": …, "workspaceId": …}')
    .action(async (options, command: Command) => {
      exit.code = await (await commands.apiKeys()).apiKeysCreateCommand(context, {
        ...options,
        db: db(command),
      });
    });
  apiKeys
    .command('list')
    .description('every key (never the key itself), revoked ones too')
    .option('--json', 'print the list as JSON')
    .action(async (options, command: Command) => {
      exit.code = await (await commands.apiKeys()).apiKeysListCommand(context, {
        ...options,
        db: db(command),
      });
    });
  apiKeys
    .command('revoke')
    .description('stop a key working, at once, in a running server too')
    .argument('<id>', 'key id (key_…), from api-keys list')
    .action(async (id: string, _options, command: Command) => {
      exit.code = await (await commands.apiKeys()).apiKeysRevokeCommand(context, id, {
        db: db(command),
      });
    });

  program
    .command('formula')
    .description('evaluate a validation formula')
    .argument('<formula>', 'e.g. "SUM(invoice.lines.amount) = invoice.total"')
    .option('--data <file>', 'JSON object holding the variables')
    .option('--json', 'print the evaluation result as JSON')
    .action(async (formula: string, options) => {
      exit.code = await (await commands.formula()).formulaCommand(context, formula, options);
    });

  return program;
}
