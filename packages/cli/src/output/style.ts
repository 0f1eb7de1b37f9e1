/**
 * Terminal styling that switches itself off: no colour when the stream is not a TTY, when
 * NO_COLOR is set (https://no-color.org) or TERM is `dumb`; FORCE_COLOR turns it on.
 */

/** Colour functions for one output stream. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Whether to colour `stream`, by the conventions above. */
export function colorEnabled(
  stream: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0')
    return true;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** A {@link Style} that colours only when `enabled`. */
export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/** Colours a run or step status by what it means. */
export function styleStatus(style: Style, status: string): string {
  switch (status) {
    case 'PROCESSED':
      return style.green(status);
    case 'FAILED':
    case 'REJECTED':
      return style.red(status);
    case 'NEEDS_REVIEW':
    case 'CANCELLED':
    case 'CANCELLING':
      return style.yellow(status);
    default:
      return status;
  }
}
