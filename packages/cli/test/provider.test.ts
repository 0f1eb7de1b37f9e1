/**
 * `--provider openai` against a loopback server that speaks the OpenAI chat-completions API: the
 * one stand-in that is right here, since it plays the model a user would point docflow at.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerSettings } from '../src/provider-options.ts';
import { docflow, INVOICE_EXTRACTOR, workspace } from './run-cli.ts';

const requests: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
  });
  req.on('end', () => {
    const body = JSON.parse(raw) as { response_format?: { json_schema?: { name?: string } } };
    requests.push({ headers: req.headers, body });
    // What the model answers, by the structured output asked for.
    const answers: Record<string, unknown> = {
      classification: { id: 'cls_invoice', confidence: 0.97, reasoning: 'It is an invoice.' },
      extraction: { invoice_number: 'INV-FROM-MODEL', total: 99.5 },
    };
    const content = answers[body.response_format?.json_schema?.name ?? ''];
    if (req.url !== '/v1/chat/completions' || content === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) } }],
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      }),
    );
  });
});
let baseUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const WORKFLOW = JSON.stringify({
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'kind' }] },
    {
      name: 'kind',
      type: 'CLASSIFY',
      config: {
        classifierConfig: {
          classifications: [
            { id: 'cls_invoice', type: 'invoice', description: 'An invoice' },
            { id: 'cls_other', type: 'other', description: 'Anything else' },
          ],
        },
      },
      next: [{ step: 'invoice', classificationId: 'cls_invoice' }],
    },
    { name: 'invoice', type: 'EXTRACT', config: INVOICE_EXTRACTOR },
  ],
});

describe('--provider openai', () => {
  it('classifies and extracts through the OpenAI-compatible API, with the key from the environment', async () => {
    const dir = workspace({ 'workflow.json': WORKFLOW, 'note.txt': 'Thanks for lunch!\n' });
    const result = await docflow(
      [
        ...['--provider', 'openai', '--provider-url', baseUrl, '--provider-model', 'test-model'],
        ...['run', 'workflow.json', 'note.txt', '--json'],
      ],
      { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-123' } },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [run] = JSON.parse(result.stdout) as {
      status: string;
      stepRuns: { step: { name: string }; result: Record<string, { output?: unknown }> }[];
    }[];
    expect(run?.status).toBe('PROCESSED');
    const step = (name: string) => run?.stepRuns.find((s) => s.step.name === name)?.result;
    // The offline provider would find neither in a note about lunch: the model said so.
    expect(step('kind')?.classifyRun?.output).toMatchObject({ id: 'cls_invoice', type: 'invoice' });
    expect(step('invoice')?.extractRun?.output).toMatchObject({
      value: { invoice_number: 'INV-FROM-MODEL', total: 99.5 },
    });
    expect(requests.map((r) => r.body.model)).toEqual(['test-model', 'test-model']);
    expect(requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-test-123',
      'Bearer sk-test-123',
    ]);
  });
});

describe('providerSettings', () => {
  it('is the offline provider unless asked', () => {
    expect(providerSettings({})).toBeUndefined();
    expect(providerSettings({ provider: 'offline', providerModel: 'x' })).toBeUndefined();
  });

  it('reads the API key from the named environment variable, never from a flag', () => {
    const flags = { provider: 'openai', providerModel: 'm', providerUrl: 'http://127.0.0.1:9/v1' };
    expect(providerSettings(flags, { OPENAI_API_KEY: 'k1' })).toEqual({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: 'k1',
    });
    // A local server (Ollama, llama.cpp) needs no key: the default variable may be unset.
    expect(providerSettings(flags, {})).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    expect(
      providerSettings({ ...flags, providerKeyEnv: 'MY_KEY' }, { MY_KEY: 'k2' }),
    ).toMatchObject({ apiKey: 'k2' });
  });

  it('names the flag that cannot work, as a usage error', () => {
    const usage = (flags: Parameters<typeof providerSettings>[0], env = {}) => {
      try {
        providerSettings(flags, env);
      } catch (error) {
        return {
          message: (error as Error).message,
          code: (error as { exitCode?: number }).exitCode,
        };
      }
      return undefined;
    };
    expect(usage({ provider: 'openai' })).toEqual({
      message: expect.stringContaining('--provider openai needs --provider-model'),
      code: 2,
    });
    expect(
      usage({ provider: 'openai', providerModel: 'm', providerUrl: 'ftp://x' })?.message,
    ).toContain('--provider-url must be an http(s) URL');
    expect(
      usage({ provider: 'openai', providerModel: 'm', providerKeyEnv: 'MY_KEY' })?.message,
    ).toBe('--provider-key-env names MY_KEY, which is not set: export MY_KEY=<the API key>');
  });
});
