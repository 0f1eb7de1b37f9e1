import type { FormatJob, FormatReply } from './contained-format.ts';
import { runFormat } from './run-format.ts';
import { toReaderFailure } from './worker-failure.ts';

// Entry of a contained parser's reader process (contained-format.ts): reads one document per
// message under the process's heap limit, and answers its draft or its error.
async function read(job: FormatJob): Promise<FormatReply> {
  const controller = new AbortController();
  try {
    const draft = await runFormat(job.type, job.bytes, {
      config: job.config,
      limits: job.limits,
      signal: controller.signal,
      mimeType: job.mimeType,
      fileName: job.fileName,
      // Only PDFs use them, and PDFs are not read here.
      pdfWorkers: 'never',
    });
    return { ok: true, draft };
  } catch (error) {
    return toReaderFailure(error);
  }
}

process.on('message', (job: FormatJob) => {
  void read(job).then((reply) => process.send?.(reply));
});
// The parent going away (its channel closing) ends the reader too.
process.on('disconnect', () => process.exit(0));
