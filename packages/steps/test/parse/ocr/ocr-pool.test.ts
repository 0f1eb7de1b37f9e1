import { describe, expect, it, vi } from 'vitest';

/**
 * The pool's slot accounting when a worker fails to start. tesseract.js is replaced at its
 * loader (the edge the pool reaches it through): `createWorker` answers as each case says.
 */
const starts: (() => Promise<unknown>)[] = [];
vi.mock('../../../src/optional/optional-package.ts', async (original) => ({
  ...(await original<typeof import('../../../src/optional/optional-package.ts')>()),
  packageDirectory: () => '/nowhere',
  // English only: the German model's data would be read from the package directory.
  isInstalled: () => false,
  loadTesseract: async () => ({
    OEM: { LSTM_ONLY: 1, TESSERACT_ONLY: 0 },
    createWorker: () => {
      const start = starts.shift();
      if (!start) throw new Error('no worker start planned');
      return start();
    },
  }),
}));

const { recognize, ocrPoolSize, ocrPoolStats, closeOcrPool } = await import(
  '../../../src/parse/ocr/ocr-pool.ts'
);

/** A worker that recognises nothing. */
function fakeWorker() {
  return {
    setParameters: async () => ({}),
    recognize: async () => ({ data: { blocks: [] } }),
    terminate: async () => ({}),
  };
}

const page = { data: new Uint8Array(4).fill(255), width: 2, height: 2 };

describe('OCR pool', () => {
  it('hands a failed start slot to a page that waited for one', async () => {
    const size = ocrPoolSize();
    // The pool's slots all start workers; the first start fails, the others are held until
    // the waiting page has been read. The waiting page must take the failed start's slot: left
    // waiting for a held worker, it would never be answered.
    const held: (() => void)[] = [];
    starts.push(() => Promise.reject(new Error('worker failed to start')));
    for (let i = 1; i < size; i++) {
      starts.push(() => new Promise((resolve) => held.push(() => resolve(fakeWorker()))));
    }
    starts.push(async () => fakeWorker());
    const first = recognize(page, 72);
    const others = Array.from({ length: size - 1 }, () => recognize(page, 72));
    const waiting = recognize(page, 72);
    await expect(first).rejects.toThrow('worker failed to start');
    await expect(waiting).resolves.toMatchObject({ words: 0, paragraphs: [] });
    for (const release of held) release();
    await Promise.all(others);
    expect(ocrPoolStats().working).toBe(0);
    await closeOcrPool();
  });
});
