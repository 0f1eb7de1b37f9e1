import { describe, expect, it } from 'vitest';
import { InThreadPort } from '../../../../src/parse/formats/pdf/in-thread-port.ts';

/** Collects what a listener receives, after the microtask in which the port delivers. */
function receiver(port: InThreadPort, signal?: AbortSignal) {
  const received: unknown[] = [];
  port.addEventListener(
    'message',
    (event) => received.push(event.data),
    signal ? { signal } : null,
  );
  return received;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('InThreadPort', () => {
  it('delivers a text-content chunk as it was at the send, without copying its items', async () => {
    const port = new InThreadPort();
    const received = receiver(port);
    const item = { str: 'Total', transform: [1, 0, 0, 1, 72, 700] };
    const textContent = { items: [item], styles: { f1: { fontFamily: 'sans-serif' } }, lang: null };
    port.postMessage({ sourceName: 'worker', stream: 4, streamId: 1, chunk: textContent });
    // pdf.js's worker half reuses the chunk object for the next chunk right after the send.
    textContent.items = [];
    textContent.styles = {} as typeof textContent.styles;
    expect(received).toEqual([]);
    await tick();
    const [message] = received as { chunk: { items: unknown[]; styles: object } }[];
    expect(message?.chunk.items).toHaveLength(1);
    expect(message?.chunk.items[0]).toBe(item);
    expect(message?.chunk.styles).toEqual({ f1: { fontFamily: 'sans-serif' } });
  });

  it('clones every other message, so that changes after the send do not reach the receiver', async () => {
    const port = new InThreadPort();
    const received = receiver(port);
    // An operator-list chunk: pdf.js empties these arrays in place right after the send.
    const chunk = { fnArray: [1, 2, 3], argsArray: [[0], [1], [2]], lastChunk: false, length: 3 };
    port.postMessage({ sourceName: 'worker', stream: 4, streamId: 2, chunk });
    chunk.fnArray.length = 0;
    chunk.argsArray.length = 0;
    const buffer = new ArrayBuffer(8);
    port.postMessage({ action: 'data', data: buffer }, [buffer]);
    await tick();
    expect(received[0]).toEqual({
      sourceName: 'worker',
      stream: 4,
      streamId: 2,
      chunk: { fnArray: [1, 2, 3], argsArray: [[0], [1], [2]], lastChunk: false, length: 3 },
    });
    expect(buffer.byteLength).toBe(0); // transferred
    expect((received[1] as { data: ArrayBuffer }).data.byteLength).toBe(8);
  });

  it('copies a message of primitives: the receiver sees it as it was at the send', async () => {
    const port = new InThreadPort();
    const received = receiver(port);
    const pull = {
      sourceName: 'main',
      targetName: 'worker',
      stream: 6,
      streamId: 3,
      desiredSize: 1,
    };
    port.postMessage(pull);
    pull.desiredSize = 0;
    await tick();
    expect(received).toEqual([{ ...pull, desiredSize: 1 }]);
    expect(received[0]).not.toBe(pull);
  });

  it('delivers in order to every listener, and not to listeners removed or aborted', async () => {
    const port = new InThreadPort();
    const first = receiver(port);
    const controller = new AbortController();
    const second = receiver(port, controller.signal);
    const third: unknown[] = [];
    const listener = (event: { data: unknown }) => third.push(event.data);
    port.addEventListener('message', listener);
    port.postMessage(1);
    port.postMessage(2);
    await tick();
    controller.abort();
    port.removeEventListener('message', listener);
    port.postMessage(3);
    await tick();
    expect(first).toEqual([1, 2, 3]);
    expect(second).toEqual([1, 2]);
    expect(third).toEqual([1, 2]);
    port.terminate();
    port.postMessage(4);
    await tick();
    expect(first).toEqual([1, 2, 3]);
  });

  it('ignores a listener whose signal has already aborted', async () => {
    const port = new InThreadPort();
    const received = receiver(port, AbortSignal.abort());
    port.postMessage('x');
    await tick();
    expect(received).toEqual([]);
  });
});
