/**
 * A layout as PostScript for Ghostscript's pdfwrite: our own small layout engine (text lines,
 * side-by-side columns, label/value pairs, ruled tables that break across pages with their
 * header repeated, running headers and page numbers). Right and centred text is placed with the
 * interpreter's own `stringwidth`, so alignment is exact; wrapping uses estimated widths.
 */
import type { Align, Element, LayoutDoc, TextStyle } from './model.ts';
import { pageSize } from './render-html.ts';

/** Characters outside ISO Latin-1 that the re-encoded fonts carry in spare slots. */
const EXTRA: Readonly<Record<string, number>> = { '€': 0o200, '–': 0o201, '•': 0o202, '’': 0o203 };

function psString(text: string): string {
  let out = '(';
  for (const ch of text.replace(/₹/g, 'Rs.')) {
    const code = ch.codePointAt(0) ?? 63;
    const extra = EXTRA[ch];
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (extra !== undefined) out += `\\${extra.toString(8)}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code >= 160 && code < 256) out += `\\${code.toString(8)}`;
    else out += '?';
  }
  return `${out})`;
}

interface Font {
  readonly name: string;
  readonly size: number;
}

class Page {
  readonly ops: string[] = [];
}

class PsLayout {
  readonly pages: Page[] = [];
  private page: Page;
  y = 0;
  private readonly width: number;
  private readonly height: number;
  readonly margin: number;
  private readonly charWidth: number;
  private currentFont = '';

  private readonly layout: LayoutDoc;

  constructor(layout: LayoutDoc) {
    this.layout = layout;
    const size = pageSize(layout);
    this.width = size.width;
    this.height = size.height;
    this.margin = layout.paper === 'receipt' ? 14 : 50;
    this.charWidth = layout.font.kind === 'mono' ? 0.6 : layout.font.kind === 'serif' ? 0.47 : 0.53;
    this.page = new Page();
    this.pages.push(this.page);
    this.y = this.margin;
  }

  get contentWidth(): number {
    return this.width - 2 * this.margin;
  }

  private get bottom(): number {
    return this.height - this.margin - (this.layout.pageNumbers === 'none' ? 0 : 12);
  }

  /** Starts a new page when `needed` points do not fit; true when it did. */
  ensure(needed: number): boolean {
    if (this.y + needed <= this.bottom) return false;
    this.page = new Page();
    this.pages.push(this.page);
    this.y = this.margin;
    this.currentFont = '';
    if (this.layout.running) {
      for (const line of this.layout.running) {
        this.y += this.layout.size * 1.2;
        this.text(line, this.margin, this.layout.size - 1, false, 'left', this.contentWidth, 0.3);
      }
      this.y += this.layout.size;
    }
    return true;
  }

  estimate(text: string, size: number, bold = false): number {
    return text.length * size * this.charWidth * (bold ? 1.06 : 1);
  }

  wrap(text: string, size: number, width: number, bold = false): string[] {
    if (this.estimate(text, size, bold) <= width) return [text];
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && this.estimate(next, size, bold) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  }

  private font(f: Font): void {
    const key = `${f.name} ${f.size}`;
    if (key === this.currentFont) return;
    this.currentFont = key;
    this.page.ops.push(`/${f.name}-L ${f.size} selectfont`);
  }

  /** Draws one line of text whose baseline is at the cursor. */
  text(
    text: string,
    x: number,
    size: number,
    bold: boolean,
    align: Align,
    width: number,
    gray = 0,
    spacing = 0,
  ): void {
    if (text === '') return;
    this.font({ name: bold ? this.layout.font.psBold : this.layout.font.ps, size });
    const y = (this.height - this.y).toFixed(2);
    const s = psString(text);
    const g = gray > 0 ? `${gray} setgray ` : '';
    const reset = gray > 0 ? ' 0 setgray' : '';
    const show = spacing > 0 ? `${spacing} 0 3 -1 roll ashow` : 'show';
    if (align === 'left')
      this.page.ops.push(`${g}${x.toFixed(2)} ${y} moveto ${s} ${show}${reset}`);
    else {
      const anchor = align === 'right' ? x + width : x + width / 2;
      const shift = align === 'right' ? '' : ' 2 div';
      this.page.ops.push(
        `${g}${s} dup stringwidth pop${shift} ${anchor.toFixed(2)} exch sub ${y} moveto ${show}${reset}`,
      );
    }
  }

  line(x0: number, y0: number, x1: number, y1: number, w = 0.6): void {
    const H = this.height;
    this.page.ops.push(
      `${w} setlinewidth newpath ${x0.toFixed(2)} ${(H - y0).toFixed(2)} moveto ${x1.toFixed(2)} ${(H - y1).toFixed(2)} lineto stroke`,
    );
  }

  fill(x: number, top: number, w: number, h: number, gray: number): void {
    this.page.ops.push(
      `${gray} setgray ${x.toFixed(2)} ${(this.height - top - h).toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)} rectfill 0 setgray`,
    );
  }

  footers(): void {
    const total = this.pages.length;
    this.pages.forEach((page, i) => {
      const labels: Record<string, string> = {
        'page-of': `Page ${i + 1} of ${total}`,
        page: `Page ${i + 1}`,
        slash: `${i + 1} / ${total}`,
      };
      const label = labels[this.layout.pageNumbers];
      if (!label) return;
      this.page = page;
      this.currentFont = '';
      const saved = this.y;
      this.y = this.height - this.margin + 14;
      this.text(label, this.margin, this.layout.size - 1, false, 'right', this.contentWidth);
      this.y = saved;
    });
  }
}

function element(ps: PsLayout, e: Element, x: number, width: number, base: number): void {
  const lead = (size: number) => size * 1.3;
  switch (e.kind) {
    case 'text': {
      const s: TextStyle = e.style ?? {};
      const size = s.size ?? base;
      for (const raw of e.lines) {
        for (const l of ps.wrap(raw, size, width, s.bold)) {
          ps.ensure(lead(size));
          ps.y += lead(size);
          ps.text(
            l,
            x,
            size,
            s.bold ?? false,
            s.align ?? 'left',
            width,
            s.muted ? 0.35 : 0,
            s.spacing ?? 0,
          );
        }
      }
      return;
    }
    case 'space':
      ps.y += e.lines * base * 1.1;
      return;
    case 'rule':
      ps.y += base * 0.5;
      ps.line(x, ps.y, x + width, ps.y);
      ps.y += base * 0.3;
      return;
    case 'columns': {
      ps.ensure(base * 6);
      const start = ps.y;
      let end = start;
      let cx = x;
      e.columns.forEach((col, i) => {
        const w = (e.widths[i] ?? 0) * width;
        ps.y = start;
        for (const c of col) element(ps, c, cx, w - 8, base);
        end = Math.max(end, ps.y);
        cx += w;
      });
      ps.y = end;
      return;
    }
    case 'pairs': {
      const size = e.style?.size ?? base;
      const bold = e.boldLabels ?? false;
      switch (e.mode) {
        case 'colon':
          for (const [l, v] of e.pairs) {
            ps.ensure(lead(size));
            ps.y += lead(size);
            ps.text(`${l}: ${v}`, x, size, false, e.align ?? 'left', width);
          }
          return;
        case 'tab':
          for (const [l, v] of e.pairs) {
            ps.ensure(lead(size));
            ps.y += lead(size);
            ps.text(l, x, size, bold, 'left', width);
            if (e.align === 'right') ps.text(v, x, size, false, 'right', width);
            else ps.text(v, x + Math.min(width * 0.45, 150), size, false, 'left', width);
          }
          return;
        case 'stacked':
          for (const [l, v] of e.pairs) {
            ps.ensure(lead(size) * 2.4);
            ps.y += lead(size * 0.85);
            ps.text(l, x, size * 0.85, false, e.align ?? 'left', width, 0.35);
            ps.y += lead(size);
            ps.text(v, x, size, !bold, e.align ?? 'left', width);
            ps.y += size * 0.4;
          }
          return;
        case 'grid':
        case 'across': {
          const rows =
            e.mode === 'grid'
              ? e.pairs.map(([l, v]) => [l, v])
              : [e.pairs.map(([l]) => l), e.pairs.map(([, v]) => v)];
          const widths = e.mode === 'grid' ? [0.45, 0.55] : e.pairs.map(() => 1 / e.pairs.length);
          grid(ps, rows, widths, x, width, size, (r, c) => (e.mode === 'grid' ? c === 0 : r === 0));
          return;
        }
      }
      return;
    }
    case 'table':
      table(ps, e, x, width, e.style?.size ?? base);
      return;
  }
}

/** A fully ruled grid of short texts; `head` cells are bold on grey. */
function grid(
  ps: PsLayout,
  rows: readonly (readonly string[])[],
  widths: readonly number[],
  x: number,
  width: number,
  size: number,
  head: (row: number, column: number) => boolean,
): void {
  const h = size * 1.7;
  ps.ensure(h * rows.length);
  const top = ps.y + 2;
  rows.forEach((row, r) => {
    let cx = x;
    row.forEach((t, c) => {
      const w = (widths[c] ?? 0) * width;
      if (head(r, c)) ps.fill(cx, top + r * h, w, h, 0.9);
      ps.y = top + r * h + size * 1.2;
      ps.text(t, cx + 3, size, head(r, c), 'left', w - 6);
      cx += w;
    });
  });
  for (let r = 0; r <= rows.length; r++) ps.line(x, top + r * h, x + width, top + r * h, 0.5);
  let cx = x;
  for (let c = 0; c <= widths.length; c++) {
    ps.line(cx, top, cx, top + rows.length * h, 0.5);
    cx += (widths[c] ?? 0) * width;
  }
  ps.y = top + rows.length * h + 2;
}

function table(
  ps: PsLayout,
  e: Element & { kind: 'table' },
  x: number,
  width: number,
  size: number,
): void {
  const lineH = size * 1.25;
  const pad = size * 0.45;
  const xs: number[] = [x];
  for (const w of e.widths) xs.push((xs[xs.length - 1] ?? x) + w * width);
  const drawRow = (cells: readonly string[], headRow: boolean, index: number): void => {
    const wrapped = cells.map((t, i) => ps.wrap(t, size, (e.widths[i] ?? 0) * width - 6, headRow));
    const lines = Math.max(1, ...wrapped.map((w) => w.length));
    const h = lines * lineH + 2 * pad;
    if (ps.ensure(h) && !headRow) drawRow(e.header, true, -1);
    const top = ps.y;
    if (e.rules === 'shaded' && (headRow || index % 2 === 1))
      ps.fill(x, top, width, h, headRow ? 0.82 : 0.94);
    if (e.rules === 'grid' && headRow) ps.fill(x, top, width, h, 0.9);
    wrapped.forEach((cellLines, i) => {
      const cx = xs[i] ?? x;
      const w = (e.widths[i] ?? 0) * width;
      cellLines.forEach((l, n) => {
        ps.y = top + pad + (n + 1) * lineH - size * 0.25;
        ps.text(l, cx + 3, size, headRow, e.align[i] ?? 'left', w - 6);
      });
    });
    if (e.rules === 'grid') {
      ps.line(x, top, x + width, top, 0.5);
      ps.line(x, top + h, x + width, top + h, 0.5);
      for (const cx of xs) ps.line(cx, top, cx, top + h, 0.5);
    }
    if (e.rules === 'header' && headRow) ps.line(x, top + h, x + width, top + h, 1);
    ps.y = top + h;
  };
  drawRow(e.header, true, -1);
  e.rows.forEach((row, i) => {
    drawRow(row, false, i);
  });
}

const PRELUDE = `%!PS-Adobe-3.0
%%Creator: docflow evaluation corpus (hand-written PostScript)
/reencode { % /new /base
  findfont dup length dict begin
  { 1 index /FID ne { def } { pop pop } ifelse } forall
  /Encoding ISOLatin1Encoding 256 array copy def
  % ISOLatin1Encoding names 0x2D /minus and 0x27 /quoteright; printer drivers send the plain glyphs.
  Encoding 8#055 /hyphen put Encoding 8#047 /quotesingle put
  Encoding 8#200 /Euro put Encoding 8#201 /endash put Encoding 8#202 /bullet put Encoding 8#203 /quoteright put
  currentdict end definefont pop
} def
`;

/** A layout as a PostScript program. */
export function renderPs(layout: LayoutDoc): string {
  const ps = new PsLayout(layout);
  for (const e of layout.body) element(ps, e, ps.margin, ps.contentWidth, layout.size);
  ps.footers();
  const { width, height } = pageSize(layout);
  const fonts = [...new Set([layout.font.ps, layout.font.psBold])]
    .map((f) => `/${f}-L /${f} reencode`)
    .join('\n');
  const pages = ps.pages
    .map(
      (p, i) =>
        `%%Page: ${i + 1} ${i + 1}\n<< /PageSize [${width} ${height}] >> setpagedevice\n${p.ops.join('\n')}\nshowpage`,
    )
    .join('\n');
  return `${PRELUDE}${fonts}\n${pages}\n%%EOF\n`;
}
