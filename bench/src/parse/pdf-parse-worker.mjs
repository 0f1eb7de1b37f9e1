// pdf-parse bundles its own pdf.js (5.4.296), which clashes with docflow's (5.6.205) in one
// thread, so it runs in a worker thread of the same benchmark script. It parses once per request,
// so that the script can interleave its runs with docflow's (both then see the same machine load).
// A request may carry the bytes to parse (without them, the worker's `workerData.bytes`) and
// `first`, how many pages to read.
import { parentPort, workerData } from 'node:worker_threads';
import { PDFParse } from 'pdf-parse';

parentPort.on('message', async (message) => {
  const bytes = message?.bytes ?? workerData?.bytes;
  const t0 = performance.now();
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  // `first`: the first pages only, as many as docflow read (its default page range ends at 750).
  const result = await parser.getText(message?.first ? { first: message.first } : {});
  await parser.destroy();
  parentPort.postMessage({
    ms: performance.now() - t0,
    pages: result.pages.length,
    chars: result.text.length,
    text: message?.withText ? result.text : undefined,
  });
});
