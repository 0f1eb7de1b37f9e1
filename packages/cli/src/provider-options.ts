/**
 * `--provider` and its settings: which model provider EXTRACT, CLASSIFY and SPLIT use. The
 * offline provider (text heuristics, no network) is the default; `openai` is any OpenAI-compatible
 * chat-completions API (OpenAI, Azure OpenAI, vLLM, llama.cpp, Ollama, LM Studio). The API key is
 * read from an environment variable, never from a flag, so that it stays out of shell history and
 * process lists.
 */
import { type Command, Option } from 'commander';
import { CliError, ExitCode } from './cli-error.ts';

/** The provider options as commander parses them (global options of the program). */
export interface ProviderFlags {
  readonly provider?: string;
  readonly providerUrl?: string;
  readonly providerModel?: string;
  readonly providerKeyEnv?: string;
}

/** What `openEngine` needs to build the provider; `undefined` is the offline provider. */
export interface ModelProviderSettings {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
}

const DEFAULT_URL = 'https://api.openai.com/v1';
const DEFAULT_KEY_ENV = 'OPENAI_API_KEY';

/** Adds the provider options to the program (each also read from a `DOCFLOW_…` variable). */
export function addProviderOptions(program: Command): Command {
  return program
    .addOption(
      new Option(
        '--provider <name>',
        'model provider of EXTRACT, CLASSIFY and SPLIT: offline (no network) or openai (any OpenAI-compatible API)',
      )
        .choices(['offline', 'openai'])
        .default('offline')
        .env('DOCFLOW_PROVIDER'),
    )
    .addOption(
      new Option('--provider-url <url>', 'base URL of the OpenAI-compatible API')
        .default(DEFAULT_URL)
        .env('DOCFLOW_PROVIDER_URL'),
    )
    .addOption(
      new Option('--provider-model <name>', 'model to ask (required with --provider openai)').env(
        'DOCFLOW_PROVIDER_MODEL',
      ),
    )
    .addOption(
      new Option(
        '--provider-key-env <variable>',
        'environment variable that holds the API key (none sent when the default one is unset)',
      )
        .default(DEFAULT_KEY_ENV)
        .env('DOCFLOW_PROVIDER_KEY_ENV'),
    );
}

/**
 * The model provider settings the flags ask for, or `undefined` for the offline provider.
 * Throws a usage error naming the flag when they cannot work.
 */
export function providerSettings(
  flags: ProviderFlags,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModelProviderSettings | undefined {
  if ((flags.provider ?? 'offline') === 'offline') return undefined;
  const model = flags.providerModel?.trim();
  if (!model) {
    throw new CliError(
      '--provider openai needs --provider-model <name> (or DOCFLOW_PROVIDER_MODEL), e.g. gpt-4o-mini',
      ExitCode.USAGE,
    );
  }
  const baseUrl = flags.providerUrl ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CliError(
      `--provider-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`,
      ExitCode.USAGE,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      `--provider-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`,
      ExitCode.USAGE,
    );
  }
  const keyEnv = flags.providerKeyEnv ?? DEFAULT_KEY_ENV;
  const apiKey = env[keyEnv];
  if (!apiKey && keyEnv !== DEFAULT_KEY_ENV) {
    throw new CliError(
      `--provider-key-env names ${keyEnv}, which is not set: export ${keyEnv}=<the API key>`,
      ExitCode.USAGE,
    );
  }
  return apiKey ? { baseUrl, model, apiKey } : { baseUrl, model };
}
