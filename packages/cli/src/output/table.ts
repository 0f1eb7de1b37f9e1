/** Plain-text tables for terminal output. */
import { stripVTControlCharacters } from 'node:util';

// Escape sequences take no room on screen.
const width = (text: string) => [...stripVTControlCharacters(text)].length;

/**
 * Renders rows under a header, columns padded to their widest cell, two spaces apart.
 *
 * @example
 * formatTable(['FILE', 'STATUS'], [['a.pdf', 'PROCESSED']]);
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) =>
        i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - width(cell)),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
