/**
 * Progress of `docflow parse` on stderr: on a terminal, a bar of the pages parsed so far, shown
 * once a document turns out to have several pages and cleared when the parse ends; nothing
 * elsewhere (logs and pipes get the result only).
 */
import type { ParseProgress } from '@docflow/steps';
import { Presets, SingleBar } from 'cli-progress';
import type { CliContext } from '../cli-context.ts';

/** Receives a parse's progress and draws it. */
export interface ParseProgressDisplay {
  update(progress: ParseProgress): void;
  stop(): void;
}

/** Creates the display for the parse of `label`. */
export function createParseProgress(
  context: CliContext,
  label: string,
  enabled: boolean,
): ParseProgressDisplay {
  if (!enabled || !context.stderr.isTTY) return { update() {}, stop() {} };
  let bar: SingleBar | undefined;
  return {
    update({ pagesDone, pageCount }) {
      if (!bar) {
        if (pageCount < 2) return;
        bar = new SingleBar(
          {
            format: `${label} {bar} {value}/{total} pages`,
            barsize: 24,
            hideCursor: true,
            clearOnComplete: true,
            stream: context.stderr,
          },
          Presets.shades_classic,
        );
        bar.start(pageCount, pagesDone);
        return;
      }
      bar.update(pagesDone);
    },
    stop() {
      bar?.stop();
    },
  };
}
