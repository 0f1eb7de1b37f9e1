import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from '@cantoo/pdf-lib';
import { StepError } from '@docflow/engine';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EXTERNAL_VALIDATION_SECRET_KEY,
  externalDataValidationStep,
} from '../../src/executors/external-data-validation-step.ts';
import {
  type FileConversion,
  fileConversionStep,
  htmlText,
} from '../../src/executors/file-conversion-step.ts';
import { memoryFiles, stepContext, stepInput } from './step-harness.ts';

let server: Server;
let url: string;
let reply: { status: number; body: string } = { status: 200, body: '{}' };
let received: { headers: IncomingMessage['headers']; body: string; method: string | undefined }[] =
  [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, method: req.method });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/validate`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = { status: 200, body: '{}' };
});

// The test endpoint listens on loopback, which the workflow URL policy refuses unless told.
const loopback = { urlPolicy: { allowLoopback: true } };

describe('externalDataValidationStep', () => {
  const outputs = {
    extract1: { value: { total: 120, customer: 'ACME' }, metadata: {} },
    classify1: { id: 'cls_invoice', type: 'invoice', confidence: 0.9, insights: [] },
  };
  const now = new Date('2026-03-01T12:00:00Z');

  it('POSTs the path data signed like a webhook and records { status, data }', async () => {
    reply = { status: 200, body: JSON.stringify({ customer: { credit_limit: 5000 } }) };
    const files = memoryFiles();
    const outcome = await externalDataValidationStep(loopback).execute(
      stepInput(
        'EXTERNAL_DATA_VALIDATION',
        { requestOptions: { url, method: 'POST', headers: { 'x-api-key': '{{secrets.apiKey}}' } } },
        [files.add('a.txt', 'x')],
        outputs as never,
        { ref: 'r1' },
      ),
      stepContext(files, {
        secrets: { [EXTERNAL_VALIDATION_SECRET_KEY]: 'whsec_test', apiKey: 'k-1' },
        now,
      }),
    );
    expect(outcome).toEqual({
      output: { status: 200, data: { customer: { credit_limit: 5000 } } },
      usage: { credits: 0 },
    });
    const [request] = received;
    if (!request) throw new Error('no request');
    const timestamp = String(now.getTime() / 1000);
    expect(request.headers['x-service-request-timestamp']).toBe(timestamp);
    expect(request.headers['x-service-request-signature']).toBe(
      createHmac('sha256', 'whsec_test').update(`v0:${timestamp}:${request.body}`).digest('hex'),
    );
    expect(request.headers['x-api-key']).toBe('k-1');
    expect(JSON.parse(request.body)).toMatchObject({
      workflowRunId: 'workflow_run_1',
      metadata: { ref: 'r1' },
      outputs: { extract1: { total: 120, customer: 'ACME' }, classify1: 'invoice' },
    });
  });

  it('CONTINUE records a failed response; EXIT makes it a step failure', async () => {
    reply = { status: 422, body: JSON.stringify({ error: 'unknown customer' }) };
    const files = memoryFiles();
    const file = files.add('a.txt', 'x');
    const cont = await externalDataValidationStep(loopback).execute(
      stepInput(
        'EXTERNAL_DATA_VALIDATION',
        { requestOptions: { url, method: 'POST' } },
        [file],
        outputs as never,
      ),
      stepContext(files),
    );
    expect(cont).toMatchObject({ output: { status: 422, data: { error: 'unknown customer' } } });
    const exit = await externalDataValidationStep(loopback).execute(
      stepInput(
        'EXTERNAL_DATA_VALIDATION',
        { requestOptions: { url, method: 'POST' }, failureBehavior: 'EXIT' },
        [file],
        outputs as never,
      ),
      stepContext(files),
    );
    expect('failure' in exit && exit.failure.reason).toBe('EXTERNAL_DATA_VALIDATION_FAILED');
  });

  it('EXIT throws a retryable StepError on 5xx and on an unreachable endpoint', async () => {
    reply = { status: 503, body: '' };
    const files = memoryFiles();
    const file = files.add('a.txt', 'x');
    const step = externalDataValidationStep(loopback);
    const config = {
      requestOptions: { url, method: 'GET' as const },
      failureBehavior: 'EXIT' as const,
    };
    const error = await step
      .execute(stepInput('EXTERNAL_DATA_VALIDATION', config, [file]), stepContext(files))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).retryable).toBe(true);
    const unreachable = await step
      .execute(
        stepInput(
          'EXTERNAL_DATA_VALIDATION',
          { ...config, requestOptions: { url: 'http://127.0.0.1:1/x', method: 'GET' } },
          [file],
        ),
        stepContext(files),
      )
      .catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(StepError);
    const recorded = await step.execute(
      stepInput(
        'EXTERNAL_DATA_VALIDATION',
        { requestOptions: { url: 'http://127.0.0.1:1/x', method: 'GET' } },
        [file],
      ),
      stepContext(files),
    );
    expect(recorded).toMatchObject({ output: { status: 0, data: { error: expect.any(String) } } });
  });
});

describe('externalDataValidationStep under the URL policy', () => {
  it('refuses a loopback endpoint by default and follows no redirect inward', async () => {
    const files = memoryFiles();
    const file = files.add('a.txt', 'x');
    const config = { requestOptions: { url, method: 'GET' as const } };
    const strict = externalDataValidationStep();
    expect(
      await strict.execute(
        stepInput('EXTERNAL_DATA_VALIDATION', config, [file]),
        stepContext(files),
      ),
    ).toMatchObject({
      output: {
        status: 0,
        data: { error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) },
      },
    });
    expect(
      await strict.execute(
        stepInput('EXTERNAL_DATA_VALIDATION', { ...config, failureBehavior: 'EXIT' }, [file]),
        stepContext(files),
      ),
    ).toMatchObject({
      failure: {
        reason: 'EXTERNAL_DATA_VALIDATION_FAILED',
        message: expect.stringMatching(/refused by the workflow URL policy/),
      },
    });
    expect(received).toHaveLength(0);
    // Allowed to reach the endpoint, but not where it redirects: the metadata service.
    reply = { status: 302, body: '' };
    const redirecting = createServer((_, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    redirecting.listen(0, '127.0.0.1');
    await once(redirecting, 'listening');
    const hop = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/check`;
    const outcome = await externalDataValidationStep(loopback).execute(
      stepInput('EXTERNAL_DATA_VALIDATION', { requestOptions: { url: hop, method: 'GET' } }, [
        file,
      ]),
      stepContext(files),
    );
    redirecting.close();
    expect(outcome).toMatchObject({
      output: {
        status: 0,
        data: {
          error: expect.stringMatching(
            /169\.254\.169\.254 is a metadata address .*a redirect from/,
          ),
        },
      },
    });
  });

  it('reads at most 256 KiB of the answer', async () => {
    reply = { status: 200, body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024) }) };
    const files = memoryFiles();
    const file = files.add('a.txt', 'x');
    const outcome = await externalDataValidationStep(loopback).execute(
      stepInput('EXTERNAL_DATA_VALIDATION', { requestOptions: { url, method: 'GET' } }, [file]),
      stepContext(files),
    );
    expect(outcome).toMatchObject({
      output: { status: 0, data: { error: expect.stringMatching(/larger than 262,144 bytes/) } },
    });
  });
});

describe('fileConversionStep', () => {
  async function convert(
    name: string,
    data: Uint8Array | string,
    failureBehavior?: 'CONTINUE' | 'EXIT',
  ) {
    const files = memoryFiles();
    const file = files.add(name, data);
    const outcome = await fileConversionStep({ sofficePath: 'docflow-no-such-soffice' }).execute(
      stepInput('FILE_CONVERSION', failureBehavior ? { failureBehavior } : {}, [file]),
      stepContext(files),
    );
    return { files, file, outcome };
  }

  it('turns a PNG into a one-page PDF child file', async () => {
    const png = await sharp({
      create: { width: 200, height: 100, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    const { files, file, outcome } = await convert('scan.png', new Uint8Array(png));
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as {
      files: { id: string; name: string }[];
      conversions: FileConversion[];
    };
    expect(output.conversions[0]).toMatchObject({ fileId: file.id, status: 'converted' });
    expect(output.files[0]?.name).toBe('scan.pdf');
    const pdf = await PDFDocument.load(
      files.bytes.get(output.files[0]?.id ?? '') ?? new Uint8Array(),
    );
    expect(pdf.getPageCount()).toBe(1);
    expect(files.created[0]?.parentFileId).toBe(file.id);
  });

  it('converts a WebP through sharp and HTML as laid-out text', async () => {
    const webp = await sharp({
      create: { width: 40, height: 40, channels: 3, background: '#ff0000' },
    })
      .webp()
      .toBuffer();
    const image = await convert('photo.webp', new Uint8Array(webp));
    expect('output' in image.outcome).toBe(true);
    const html = await convert(
      'page.html',
      '<html><body><h1>Invoice</h1><p>Total: 10 €</p><script>x()</script></body></html>',
    );
    if ('failure' in html.outcome) throw new Error(html.outcome.failure.message);
    expect(await htmlText('<h1>Invoice</h1><p>Total:&nbsp;10</p><script>x()</script>')).toBe(
      'Invoice\nTotal: 10',
    );
  });

  it('passes PDFs through unchanged', async () => {
    const pdf = await (await PDFDocument.create()).save();
    const { file, outcome } = await convert('a.pdf', pdf);
    expect('output' in outcome && outcome.output).toMatchObject({
      files: [{ id: file.id }],
      conversions: [{ status: 'unchanged' }],
    });
  });

  it('fails with FAILED_TO_CONVERT_TO_PDF naming LibreOffice when it is missing; CONTINUE keeps the file', async () => {
    const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]);
    const exit = await convert('letter.docx', docx);
    expect('failure' in exit.outcome && exit.outcome.failure).toMatchObject({
      reason: 'FAILED_TO_CONVERT_TO_PDF',
    });
    expect('failure' in exit.outcome && exit.outcome.failure.message).toMatch(
      /LibreOffice is not installed/,
    );
    const cont = await convert('letter.docx', docx, 'CONTINUE');
    expect('output' in cont.outcome && cont.outcome.output).toMatchObject({
      files: [{ id: cont.file.id }],
      conversions: [{ status: 'failed', message: expect.stringMatching(/LibreOffice/) }],
    });
  });

  it('fails on an image that cannot be decoded', async () => {
    const { outcome } = await convert(
      'broken.png',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('FAILED_TO_CONVERT_TO_PDF');
  });
});
