// pdf-parse bundles its own pdf.js (5.4.296), which clashes with docflow's (5.6.205) in one
// thread, so it runs in a worker thread of the same benchmark script.
import { parentPort, workerData } from 'node:worker_threads';
import { PDFParse } from 'pdf-parse';

const { bytes, runs } = workerData;
const times = [];
let pages = 0;
let chars = 0;
for (let i = 0; i < runs + 1; i++) {
  const t0 = performance.now();
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  const result = await parser.getText();
  await parser.destroy();
  const ms = performance.now() - t0;
  // The first run is the cold one (JIT, font tables); it is reported apart.
  if (i > 0) times.push(ms);
  pages = result.pages.length;
  chars = result.text.length;
}
parentPort.postMessage({ times, pages, chars });
