function escapeCell(text: string): string {
  return text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** A GitHub-flavoured markdown table; the first row is the header. Linear in the cell count. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (rows.length === 0 || width === 0) return '';
  const line = (row: readonly string[]) => {
    const cells: string[] = [];
    for (let i = 0; i < width; i++) cells.push(escapeCell(row[i] ?? ''));
    return `| ${cells.join(' | ')} |`;
  };
  const out = [line(rows[0] ?? []), `|${' --- |'.repeat(width)}`];
  for (let r = 1; r < rows.length; r++) out.push(line(rows[r] ?? []));
  return out.join('\n');
}
