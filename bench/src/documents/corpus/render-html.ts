/**
 * A layout as HTML: printed by Chromium (which also honours the CSS page margin boxes for
 * running headers and page numbers) or imported by LibreOffice Writer (which ignores them).
 * Side-by-side columns are layout tables, which both understand.
 */
import type { Element, LayoutDoc, TextStyle } from './model.ts';

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cssString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function styleOf(style: TextStyle | undefined, base: number): string {
  const s = style ?? {};
  const parts = [`font-size:${s.size ?? base}pt`, 'margin:0'];
  if (s.bold) parts.push('font-weight:bold');
  if (s.italic) parts.push('font-style:italic');
  if (s.align) parts.push(`text-align:${s.align}`);
  if (s.spacing) parts.push(`letter-spacing:${s.spacing}pt`);
  if (s.muted) parts.push('color:#555');
  return parts.join(';');
}

/** Rough height of a layout in lines, for receipt paper whose length follows its content. */
export function estimateLines(elements: readonly Element[]): number {
  let n = 0;
  for (const e of elements) {
    switch (e.kind) {
      case 'text':
        n += e.lines.length * ((e.style?.size ?? 10) > 14 ? 2 : 1);
        break;
      case 'columns':
        n += Math.max(0, ...e.columns.map(estimateLines));
        break;
      case 'pairs':
        n +=
          e.mode === 'across'
            ? 2.5
            : e.mode === 'stacked'
              ? e.pairs.length * 2
              : e.pairs.length * 1.3;
        break;
      case 'table':
        n += (e.rows.length + 1) * 1.4;
        break;
      case 'rule':
        n += 0.5;
        break;
      case 'space':
        n += e.lines;
        break;
    }
  }
  return n;
}

export function pageSize(layout: LayoutDoc): { width: number; height: number } {
  if (layout.paper === 'letter') return { width: 612, height: 792 };
  if (layout.paper === 'a4') return { width: 595.28, height: 841.89 };
  // Thermal paper, 80 mm wide, as long as the receipt.
  const lines = estimateLines(layout.body);
  return { width: 226.77, height: Math.max(340, Math.round(lines * layout.size * 1.55 + 60)) };
}

function render(e: Element, base: number, forWriter: boolean): string {
  switch (e.kind) {
    case 'text':
      return `<p style="${styleOf(e.style, base)}">${e.lines.map(esc).join('<br>')}</p>`;
    case 'space':
      return forWriter
        ? '<p style="margin:0">&nbsp;</p>'.repeat(e.lines)
        : `<div style="height:${(e.lines * base * 1.2).toFixed(1)}pt"></div>`;
    case 'rule':
      return '<hr style="border:0;border-top:1px solid #444;margin:4pt 0">';
    case 'columns':
      return `<table width="100%" cellspacing="0" cellpadding="0" style="border-collapse:collapse"><tr>${e.columns
        .map(
          (col, i) =>
            `<td width="${Math.round((e.widths[i] ?? 0) * 100)}%" valign="top" style="vertical-align:top;padding:0 ${i < e.columns.length - 1 ? 8 : 0}pt 0 0">${col.map((c) => render(c, base, forWriter)).join('\n')}</td>`,
        )
        .join('')}</tr></table>`;
    case 'pairs': {
      const label = (l: string) => (e.boldLabels ? `<b>${esc(l)}</b>` : esc(l));
      const align = e.align ?? 'left';
      const size = e.style?.size ?? base;
      switch (e.mode) {
        case 'colon':
          return `<p style="margin:0;font-size:${size}pt;text-align:${align}">${e.pairs
            .map(([l, v]) => `${label(`${l}:`)} ${esc(v)}`)
            .join('<br>')}</p>`;
        case 'tab':
          return `<table cellspacing="0" cellpadding="1" style="border-collapse:collapse;font-size:${size}pt"${align === 'right' ? ' width="100%"' : ''}>${e.pairs
            .map(
              ([l, v]) =>
                `<tr><td style="padding:1pt 12pt 1pt 0">${label(l)}</td><td align="${align}" style="text-align:${align}">${esc(v)}</td></tr>`,
            )
            .join('')}</table>`;
        case 'stacked':
          return e.pairs
            .map(
              ([l, v]) =>
                `<p style="margin:0 0 4pt 0;font-size:${size}pt;text-align:${align}"><span style="font-size:${(size * 0.85).toFixed(1)}pt;color:#555">${esc(l)}</span><br>${e.boldLabels ? esc(v) : `<b>${esc(v)}</b>`}</p>`,
            )
            .join('');
        case 'grid':
          return `<table border="1" cellspacing="0" cellpadding="3" width="100%" style="border-collapse:collapse;font-size:${size}pt">${e.pairs
            .map(
              ([l, v]) =>
                `<tr><td style="border:1px solid #444;background:#eee;font-weight:bold;padding:2pt 4pt">${esc(l)}</td><td style="border:1px solid #444;padding:2pt 4pt">${esc(v)}</td></tr>`,
            )
            .join('')}</table>`;
        case 'across':
          return `<table border="1" cellspacing="0" cellpadding="3" width="100%" style="border-collapse:collapse;font-size:${size}pt"><tr>${e.pairs
            .map(
              ([l]) =>
                `<th style="border:1px solid #444;background:#eee;text-align:left;padding:2pt 4pt">${esc(l)}</th>`,
            )
            .join('')}</tr><tr>${e.pairs
            .map(([, v]) => `<td style="border:1px solid #444;padding:2pt 4pt">${esc(v)}</td>`)
            .join('')}</tr></table>`;
      }
      return '';
    }
    case 'table': {
      const size = e.style?.size ?? base;
      const border = e.rules === 'grid' ? 'border:1px solid #333;' : '';
      const headStyle =
        e.rules === 'header'
          ? 'border-bottom:1.5px solid #000;'
          : e.rules === 'shaded'
            ? 'background:#d8d8d8;'
            : e.rules === 'grid'
              ? 'background:#eee;'
              : '';
      const cell = (text: string, i: number, head: boolean, row: number) => {
        const a = e.align[i] ?? 'left';
        const shade = e.rules === 'shaded' && !head && row % 2 === 1 ? 'background:#f1f1f1;' : '';
        const tag = head ? 'th' : 'td';
        return `<${tag} align="${a}" style="text-align:${a};padding:2pt 4pt;${border}${head ? headStyle : shade}">${esc(text)}</${tag}>`;
      };
      return `<table width="100%" cellspacing="0" cellpadding="2"${e.rules === 'grid' ? ' border="1"' : ''} style="border-collapse:collapse;font-size:${size}pt"><colgroup>${e.widths
        .map((w) => `<col width="${Math.round(w * 100)}%">`)
        .join(
          '',
        )}</colgroup><thead><tr>${e.header.map((h, i) => cell(h, i, true, 0)).join('')}</tr></thead><tbody>${e.rows
        .map((row, r) => `<tr>${row.map((t, i) => cell(t, i, false, r)).join('')}</tr>`)
        .join('\n')}</tbody></table>`;
    }
  }
}

/** The HTML of a layout; `forWriter` drops what LibreOffice's HTML import cannot use. */
export function renderHtml(layout: LayoutDoc, forWriter = false): string {
  const { width, height } = pageSize(layout);
  const margin = layout.paper === 'receipt' ? 14 : 50;
  const numbers: Record<string, string> = {
    'page-of': '"Page " counter(page) " of " counter(pages)',
    page: '"Page " counter(page)',
    slash: 'counter(page) " / " counter(pages)',
  };
  const number = numbers[layout.pageNumbers];
  const running = layout.running
    ? `@top-left { content: ${cssString(layout.running.join('\n')).replace(/\n/g, '\\A ')}; white-space: pre; font-size: ${layout.size - 1}pt; font-family: '${layout.font.family}'; color: #444; }`
    : '';
  const css = `
@page { size: ${width}pt ${height}pt; margin: ${layout.running ? margin + 14 : margin}pt ${margin}pt ${margin}pt ${margin}pt;
  ${number ? `@bottom-right { content: ${number}; font-size: ${layout.size - 1}pt; font-family: '${layout.font.family}'; }` : ''}
  ${running} }
@page :first { margin-top: ${margin}pt; @top-left { content: none; } }
body { font-family: '${layout.font.family}'; font-size: ${layout.size}pt; margin: 0; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; }`;
  // Writer/Web's import (LibreOffice 7.4) loses a document's first paragraph (a body of
  // `<p>A</p><p>B</p>` prints only B): an empty one goes first so that the letterhead survives.
  const lost = forWriter ? '<p style="margin:0">&nbsp;</p>\n' : '';
  const body = lost + layout.body.map((e) => render(e, layout.size, forWriter)).join('\n');
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>document</title><style>${css}</style></head><body>\n${body}\n</body></html>\n`;
}
