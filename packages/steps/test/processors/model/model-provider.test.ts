/**
 * The model provider against a local HTTP server that speaks the OpenAI chat-completions API
 * (the one place a stand-in is right: it plays the model).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StepError } from '@docflow/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modelProvider } from '../../../src/processors/model/model-provider.ts';
import {
  runClassification,
  runExtraction,
  runSplit,
} from '../../../src/processors/run-processor.ts';
import { textToParseOutput } from '../../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../../src/processors/view/build-view.ts';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handlers: Handler[] = [];
let requests: {
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  url: string | undefined;
}[] = [];

function answer(content: unknown, usage = { prompt_tokens: 120, completion_tokens: 30 }): Handler {
  return (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: JSON.stringify(content) },
            finish_reason: 'stop',
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  };
}

function status(code: number, headers: Record<string, string> = {}): Handler {
  return (_body, _req, res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `status ${code}` } }));
  };
}

const hang: Handler = () => {
  // Never answers: the client must time out or abort.
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      requests.push({ body, headers: req.headers, url: req.url });
      const handler = handlers.shift() ?? status(500);
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  handlers = [];
  requests = [];
});

const pages = [
  'ACME Corp\nINVOICE\nInvoice number: INV-77\nTotal: $1,250.00',
  'Dear Ms. Smith,\nSincerely,\nBob',
];
const view = buildDocumentView([{ output: textToParseOutput(pages), fileId: 'file_1' }]);
const classifications = [
  { id: 'cls_invoice', type: 'invoice' },
  { id: 'cls_letter', type: 'letter' },
  { id: 'cls_other', type: 'other' },
];

function provider(extra: Partial<Parameters<typeof modelProvider>[0]> = {}) {
  return modelProvider({
    baseUrl,
    apiKey: 'sk-test',
    model: 'test-model',
    retryBaseMs: 1,
    ...extra,
  });
}

describe('modelProvider', () => {
  it('classifies with a JSON-schema response format and maps token usage', async () => {
    handlers.push(answer({ id: 'cls_invoice', confidence: 0.93, reasoning: 'It says INVOICE.' }));
    const result = await runClassification(provider(), view, { classifications });
    expect(result).toEqual({
      output: {
        id: 'cls_invoice',
        type: 'invoice',
        confidence: 0.93,
        insights: [{ type: 'reasoning', content: 'It says INVOICE.' }],
      },
      usage: { pages: 2, inputTokens: 120, outputTokens: 30 },
    });
    const [request] = requests;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('test-model');
    const format = request?.body.response_format as {
      type: string;
      json_schema: { schema: { properties: { id: { enum: string[] } } } };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema.properties.id.enum).toEqual([
      'cls_invoice',
      'cls_letter',
      'cls_other',
    ]);
    const messages = request?.body.messages as { role: string; content: string }[];
    expect(messages[1]?.content).toContain('--- Page 2 ---');
  });

  it('extracts with the extractor schema as response format, repairs the answer and cites values', async () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        invoice_number: { type: ['string', 'null'] },
        total: {
          type: 'object',
          properties: {
            amount: { type: ['number', 'null'] },
            iso_4217: { type: ['string', 'null'] },
          },
        },
        paid: { type: ['boolean', 'null'] },
      },
    };
    handlers.push(
      answer({
        invoice_number: 'INV-77',
        total: { amount: '1,250.00', iso_4217: 'USD' },
        paid: 'maybe',
        extra: 1,
      }),
    );
    const result = await runExtraction(provider(), view, { schema });
    if ('failure' in result) throw new Error(result.failure.message);
    expect(result.output.value).toEqual({
      invoice_number: 'INV-77',
      total: { amount: 1250, iso_4217: 'USD' },
      paid: null,
    });
    expect(result.output.metadata.invoice_number?.citations[0]).toMatchObject({
      fileId: 'file_1',
      page: { number: 1 },
      referenceText: 'Invoice number: INV-77',
    });
    expect(result.output.metadata.total?.citations[0]?.referenceText).toBe('Total: $1,250.00');
    const format = requests[0]?.body.response_format as { json_schema: { schema: unknown } };
    expect(format.json_schema.schema).toEqual(schema);
  });

  it('fails with POST_PROCESSING_FAILURE when the answer cannot conform to the schema', async () => {
    handlers.push(answer({ invoice_number: 42 }));
    const schema = {
      type: 'object',
      required: ['invoice_number'],
      properties: { invoice_number: { type: 'string', pattern: '^INV-' } },
    };
    const result = await runExtraction(provider(), view, { schema });
    expect('failure' in result && result.failure.reason).toBe('POST_PROCESSING_FAILURE');
  });

  it('fails with POST_PROCESSING_FAILURE when the answer is not JSON', async () => {
    handlers.push((_b, _r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'I think it is an invoice' } }] }));
    });
    const result = await runExtraction(provider(), view, {
      schema: { type: 'object', properties: {} },
    });
    expect('failure' in result && result.failure.reason).toBe('POST_PROCESSING_FAILURE');
  });

  it('retries 429 and 5xx, then succeeds', async () => {
    handlers.push(
      status(429, { 'retry-after': '0' }),
      status(503),
      answer({ id: 'cls_letter', confidence: 0.8, reasoning: 'Dear' }),
    );
    const result = await runClassification(provider(), view, { classifications });
    expect('output' in result && result.output.id).toBe('cls_letter');
    expect(requests).toHaveLength(3);
  });

  it('throws a retryable StepError when retries run out', async () => {
    handlers.push(status(500), status(502), status(500));
    const error = await runClassification(provider({ maxRetries: 2 }), view, {
      classifications,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).retryable).toBe(true);
    expect(requests).toHaveLength(3);
  });

  it('throws a non-retryable StepError on 401', async () => {
    handlers.push(status(401));
    const error = await runClassification(provider(), view, { classifications }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).retryable).toBe(false);
    expect((error as StepError).reason).toBe('INVALID_CONFIGURATION');
    expect(requests).toHaveLength(1);
  });

  it('obeys the provider URL policy: a metadata address, or a loopback model the owner denied, is a non-retryable configuration failure', async () => {
    for (const p of [
      modelProvider({ baseUrl: 'http://169.254.169.254/v1', model: 'm', retryBaseMs: 1 }),
      provider({ urlPolicy: { denyHosts: ['127.0.0.0/8'] } }),
    ]) {
      const error = await runClassification(p, view, { classifications }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StepError);
      expect(error).toMatchObject({ retryable: false, reason: 'INVALID_CONFIGURATION' });
      expect((error as Error).message).toMatch(/refused by the provider URL policy/);
    }
    expect(requests).toHaveLength(0);
  });

  it('reads at most maxResponseBytes of an answer', async () => {
    handlers.push(answer({ type: 'invoice', filler: 'x'.repeat(64 * 1024) }));
    const error = await runClassification(provider({ maxResponseBytes: 16 * 1024 }), view, {
      classifications,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false, reason: 'INVALID_CONFIGURATION' });
    expect((error as Error).message).toMatch(/larger than 16,384 bytes/);
  });

  it('retries an attempt that times out', async () => {
    handlers.push(hang, answer({ id: 'cls_invoice', confidence: 0.9, reasoning: 'x' }));
    const result = await runClassification(provider({ timeoutMs: 100 }), view, { classifications });
    expect('output' in result && result.output.id).toBe('cls_invoice');
    expect(requests).toHaveLength(2);
  });

  it('aborts the request when the signal is aborted', async () => {
    handlers.push(hang);
    const controller = new AbortController();
    const pending = runClassification(provider(), view, { classifications }, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    expect(requests).toHaveLength(1);
  });

  it('splits into contiguous ranges covering the document', async () => {
    handlers.push(
      answer({
        splits: [
          {
            classificationId: 'cls_invoice',
            startPage: 1,
            endPage: 1,
            identifier: 'INV-77',
            observation: 'An invoice',
            confidence: 0.9,
          },
          {
            classificationId: 'cls_letter',
            startPage: 2,
            endPage: 2,
            identifier: 'letter',
            observation: 'A letter',
            confidence: 0.7,
          },
        ],
      }),
    );
    const result = await runSplit(provider(), view, { splitClassifications: classifications });
    if ('failure' in result) throw new Error(result.failure.message);
    expect(result.output.map((s) => [s.type, s.startPage, s.endPage, s.identifier])).toEqual([
      ['invoice', 1, 1, 'INV-77'],
      ['letter', 2, 2, 'letter'],
    ]);
  });
});
