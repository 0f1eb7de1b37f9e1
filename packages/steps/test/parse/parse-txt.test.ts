import { isStepFailure, StepError } from '@docflow/engine';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import type { ParseRunOutput } from '../../src/parse/parse-output.ts';
import { parseStep } from '../../src/parse/parse-step.ts';
import { fakeStep, utf8 } from './step-context.ts';

const letter = 'Dear customer,\nthank you.\n\n# not a heading\n\nInvoice total: 42.00 EUR\r\n';

describe('TXT', () => {
  it('parses paragraphs into text blocks of one page chunk', async () => {
    const result = await parseDocument(utf8(letter), { fileName: 'letter.txt' });
    if (!result.ok) throw new Error(result.failureMessage);
    const [chunk] = result.output.chunks;
    expect(result.output.chunks).toHaveLength(1);
    expect(chunk?.type).toBe('page');
    expect(chunk?.metadata).toEqual({
      pageRange: { start: 1, end: 1 },
      minOcrConfidence: null,
      avgOcrConfidence: null,
    });
    expect(chunk?.blocks.map((block) => block.content)).toEqual([
      'Dear customer,\nthank you.',
      '# not a heading',
      'Invoice total: 42.00 EUR',
    ]);
    expect(chunk?.blocks.map((block) => block.id)).toEqual(['blk_1', 'blk_2', 'blk_3']);
    // Text that markdown would misread is escaped in the markdown content only.
    expect(chunk?.content).toContain('\\# not a heading');
    expect(chunk?.blocks[0]).toMatchObject({
      object: 'block',
      type: 'text',
      parentBlockId: null,
      details: { type: 'text_details' },
      polygon: [],
      boundingBox: null,
    });
    expect(result.output.metadata).toEqual({
      originalMimeType: 'text/plain',
      finalMimeType: 'text/plain',
      pages: null,
    });
    expect(result.usage).toEqual({ credits: 1, pages: 1 });
  });

  it('keeps the text as written for the spatial target', async () => {
    const result = await parseDocument(utf8(letter), { config: { target: 'spatial' } });
    if (!result.ok) throw new Error(result.failureMessage);
    expect(result.output.chunks[0]?.content).toBe(letter.replace('\r\n', '\n'));
  });

  it('decodes Windows-1252 and UTF-16 text', async () => {
    const latin = await parseDocument(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x2e]));
    const utf16 = await parseDocument(new Uint8Array([0xff, 0xfe, 0x48, 0, 0x69, 0]));
    expect(latin.ok && latin.output.chunks[0]?.content).toBe('Café.');
    expect(utf16.ok && utf16.output.chunks[0]?.content).toBe('Hi');
  });
});

describe('parse config validation', () => {
  it.each([
    [{ target: 'spatial', chunkingStrategy: { type: 'section' } }, /spatial/],
    [{ target: 'html' }, /parseConfig\.target/],
    [{ advancedOptions: { excelIncludeCellMetadata: true } }, /excelParsingMode 'advanced'/],
    [{ advancedOptions: { pageRanges: [{ start: 5, end: 2 }] } }, /pageRanges\[0\]/],
    [{ advancedOptions: { unknownOption: true } }, /unknownOption/],
    [{ blockOptions: { figures: { customInstructions: 'x' } } }, /figures\.enabled/],
  ])('%j fails with INVALID_CONFIG_OPTIONS', async (config, message) => {
    const result = await parseDocument(utf8('x'), { config: config as never });
    expect(result).toMatchObject({ ok: false, failureReason: 'INVALID_CONFIG_OPTIONS' });
    expect(!result.ok && result.failureMessage).toMatch(message);
  });
});

describe('failures as values', () => {
  it('FILE_SIZE_TOO_LARGE above the configured limit', async () => {
    const result = await parseDocument(utf8('x'.repeat(2000)), { limits: { maxFileBytes: 1000 } });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/limits\.maxFileBytes/);
  });

  it('FILE_TYPE_NOT_SUPPORTED for unknown binary content, whatever the name', async () => {
    const result = await parseDocument(new Uint8Array([0, 1, 2, 3, 4, 0, 0, 9]), {
      fileName: 'notes.txt',
    });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_TYPE_NOT_SUPPORTED' });
  });

  it('rejects with the reason when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(parseDocument(utf8('x'), { signal: controller.signal })).rejects.toThrow(
      'cancelled',
    );
  });
});

describe('parseStep', () => {
  it('is a PARSE executor whose schema accepts parseConfig only', () => {
    const step = parseStep();
    expect(step.type).toBe('PARSE');
    expect(step.configSchema).toMatchObject({ additionalProperties: false });
  });

  it('reads the file and returns ParseRunOutput and usage', async () => {
    const { input, context } = fakeStep([{ name: 'a.txt', data: utf8('Hello world') }]);
    const outcome = await parseStep().execute(input, context);
    if (isStepFailure(outcome)) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ParseRunOutput;
    expect(output.chunks[0]?.content).toBe('Hello world');
    expect(outcome.usage).toEqual({ credits: 1, pages: 1 });
  });

  it('returns a failure value naming the file in a package', async () => {
    const { input, context } = fakeStep([
      { name: 'a.txt', data: utf8('Hello') },
      { name: 'b.bin', data: new Uint8Array([0, 0, 0, 1, 2]) },
    ]);
    const outcome = await parseStep().execute(input, context);
    expect(outcome).toMatchObject({
      failure: { reason: 'FILE_TYPE_NOT_SUPPORTED', message: expect.stringMatching(/^b\.bin: /) },
    });
  });

  it('turns a failed read into a retryable StepError', async () => {
    const { input, context } = fakeStep([{ name: 'a.txt', data: utf8('x') }]);
    const broken = {
      ...context,
      files: { ...context.files, read: () => Promise.reject(new Error('disk')) },
    };
    const attempt = parseStep().execute(input, broken);
    await expect(attempt).rejects.toBeInstanceOf(StepError);
    await expect(attempt).rejects.toMatchObject({ retryable: true });
  });

  it('leaves figures out when blockOptions.figures.enabled is false', async () => {
    const html = utf8('<html><body><p>Hi</p><img src="a.png" alt="A"></body></html>');
    const { input, context } = fakeStep([{ name: 'a.html', data: html }], {
      parseConfig: { blockOptions: { figures: { enabled: false } } },
    });
    const outcome = await parseStep().execute(input, context);
    if (isStepFailure(outcome)) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ParseRunOutput;
    expect(output.chunks[0]?.blocks.map((block) => block.type)).toEqual(['text']);
  });

  it('parses every file of a package', async () => {
    const { input, context } = fakeStep([
      { name: 'a.txt', data: utf8('first') },
      { name: 'b.txt', data: utf8('second') },
    ]);
    const outcome = await parseStep().execute(input, context);
    if (isStepFailure(outcome)) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ParseRunOutput & { files: unknown[] };
    expect(output.chunks.map((chunk) => chunk.content)).toEqual(['first', 'second']);
    expect(output.files).toHaveLength(2);
    expect(outcome.usage).toEqual({ credits: 2, pages: 2 });
  });
});
