/**
 * A layout as flat OpenDocument for LibreOffice: a text document (`.fodt`, Writer) with tab
 * stops, nested tables, page fields and a running header from the second page on; or a
 * spreadsheet (`.fods`, Calc) whose cells hold the same elements row by row.
 */
import type { Align, Element, LayoutDoc, TextStyle } from './model.ts';
import { pageSize } from './render-html.ts';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Text with runs of spaces kept (ODF collapses them otherwise). */
const odfText = (s: string) =>
  xml(s).replace(/ {2,}/g, (m) => ` <text:s text:c="${m.length - 1}"/>`);

/** Automatic styles, each distinct property set once. */
class Styles {
  private readonly byKey = new Map<string, string>();
  readonly xml: string[] = [];
  add(family: string, prefix: string, body: string, attrs = ''): string {
    const key = `${family}|${attrs}|${body}`;
    const known = this.byKey.get(key);
    if (known) return known;
    const name = `${prefix}${this.byKey.size + 1}`;
    this.byKey.set(key, name);
    this.xml.push(
      `<style:style style:name="${name}" style:family="${family}"${attrs}>${body}</style:style>`,
    );
    return name;
  }
}

interface ParagraphProps extends TextStyle {
  readonly tab?: { readonly at: number; readonly type: 'left' | 'right' };
  readonly after?: number;
  readonly ruleBelow?: boolean;
  readonly master?: string;
}

function paragraphStyle(styles: Styles, p: ParagraphProps, base: number): string {
  const para = [
    p.align
      ? `fo:text-align="${p.align === 'left' ? 'start' : p.align === 'right' ? 'end' : 'center'}"`
      : '',
    `fo:margin-bottom="${p.after ?? 0}pt"`,
    'fo:margin-top="0pt"',
    p.ruleBelow ? 'fo:border-bottom="0.75pt solid #444444" fo:padding-bottom="2pt"' : '',
  ].join(' ');
  const tabs = p.tab
    ? `<style:tab-stops><style:tab-stop style:position="${p.tab.at.toFixed(1)}pt" style:type="${p.tab.type}"/></style:tab-stops>`
    : '';
  const textProps = [
    `fo:font-size="${p.size ?? base}pt"`,
    p.bold ? 'fo:font-weight="bold"' : '',
    p.italic ? 'fo:font-style="italic"' : '',
    p.spacing ? `fo:letter-spacing="${p.spacing}pt"` : '',
    p.muted ? 'fo:color="#555555"' : '',
  ].join(' ');
  return styles.add(
    'paragraph',
    'P',
    `<style:paragraph-properties ${para}>${tabs}</style:paragraph-properties><style:text-properties ${textProps}/>`,
    ` style:parent-style-name="Standard"${p.master ? ` style:master-page-name="${p.master}"` : ''}`,
  );
}

const alignOf = (a: Align | undefined) => a ?? 'left';

interface WriterState {
  readonly styles: Styles;
  readonly base: number;
  tables: number;
  /** The master page the first paragraph must name (set once, then cleared). */
  master?: string | undefined;
}

function para(state: WriterState, props: ParagraphProps, content: string): string {
  const master = state.master;
  state.master = undefined;
  const name = paragraphStyle(state.styles, master ? { ...props, master } : props, state.base);
  return `<text:p text:style-name="${name}">${content}</text:p>`;
}

function boldSpan(state: WriterState, text: string): string {
  const name = state.styles.add('text', 'T', '<style:text-properties fo:font-weight="bold"/>');
  return `<text:span text:style-name="${name}">${text}</text:span>`;
}

function table(
  state: WriterState,
  width: number,
  widths: readonly number[],
  rows: readonly (readonly { content: string; shade?: boolean; borders: string }[])[],
  headerRows = 0,
): string {
  const { styles } = state;
  state.tables++;
  const tableStyle = styles.add(
    'table',
    'Ta',
    `<style:table-properties style:width="${width.toFixed(1)}pt" table:align="left" fo:margin-top="0pt" fo:margin-bottom="0pt"/>`,
  );
  const cols = widths
    .map((w) => {
      const s = styles.add(
        'table-column',
        'Co',
        `<style:table-column-properties style:column-width="${(w * width).toFixed(1)}pt"/>`,
      );
      return `<table:table-column table:style-name="${s}"/>`;
    })
    .join('');
  const row = (cells: (typeof rows)[number]) =>
    `<table:table-row>${cells
      .map((c) => {
        const s = styles.add(
          'table-cell',
          'Ce',
          `<style:table-cell-properties fo:padding="2pt" ${c.borders}${c.shade ? ' fo:background-color="#e4e4e4"' : ''}/>`,
        );
        return `<table:table-cell table:style-name="${s}" office:value-type="string">${c.content}</table:table-cell>`;
      })
      .join('')}</table:table-row>`;
  const head = rows.slice(0, headerRows).map(row).join('');
  const body = rows.slice(headerRows).map(row).join('');
  return `<table:table table:name="Table${state.tables}" table:style-name="${tableStyle}">${cols}${head ? `<table:table-header-rows>${head}</table:table-header-rows>` : ''}${body}</table:table>`;
}

const GRID = 'fo:border="0.5pt solid #333333"';
const NONE = 'fo:border="none"';

function writerElement(state: WriterState, e: Element, width: number): string {
  const base = state.base;
  switch (e.kind) {
    case 'text':
      return e.lines.map((l) => para(state, e.style ?? {}, odfText(l))).join('');
    case 'space':
      return Array.from({ length: e.lines }, () => para(state, {}, '')).join('');
    case 'rule':
      return para(state, { ruleBelow: true, size: 3 }, '');
    case 'columns': {
      const cells = e.columns.map((col, i) => {
        const w = (e.widths[i] ?? 0) * width - 6;
        const inner = col.map((c) => writerElement(state, c, w)).join('') || para(state, {}, '');
        return { content: inner, borders: NONE };
      });
      return table(state, width, e.widths, [cells]);
    }
    case 'pairs': {
      const label = (l: string) => (e.boldLabels ? boldSpan(state, odfText(l)) : odfText(l));
      const size = e.style?.size ?? base;
      switch (e.mode) {
        case 'colon':
          return e.pairs
            .map(([l, v]) =>
              para(state, { size, align: alignOf(e.align) }, `${label(`${l}:`)} ${odfText(v)}`),
            )
            .join('');
        case 'tab': {
          const right = e.align === 'right';
          const at = right ? width - 4 : Math.min(width * 0.45, 150);
          return e.pairs
            .map(([l, v]) =>
              para(
                state,
                { size, tab: { at, type: right ? 'right' : 'left' } },
                `${label(l)}<text:tab/>${odfText(v)}`,
              ),
            )
            .join('');
        }
        case 'stacked':
          return e.pairs
            .map(
              ([l, v]) =>
                para(
                  state,
                  { size: size * 0.85, muted: true, align: alignOf(e.align) },
                  odfText(l),
                ) +
                para(
                  state,
                  { size, bold: !e.boldLabels, align: alignOf(e.align), after: 4 },
                  odfText(v),
                ),
            )
            .join('');
        case 'grid':
          return table(
            state,
            width,
            [0.45, 0.55],
            e.pairs.map(([l, v]) => [
              {
                content: para(state, { size, bold: true }, odfText(l)),
                shade: true,
                borders: GRID,
              },
              { content: para(state, { size }, odfText(v)), borders: GRID },
            ]),
          );
        case 'across':
          return table(
            state,
            width,
            e.pairs.map(() => 1 / e.pairs.length),
            [
              e.pairs.map(([l]) => ({
                content: para(state, { size, bold: true }, odfText(l)),
                shade: true,
                borders: GRID,
              })),
              e.pairs.map(([, v]) => ({
                content: para(state, { size }, odfText(v)),
                borders: GRID,
              })),
            ],
          );
      }
      return '';
    }
    case 'table': {
      const size = e.style?.size ?? base;
      const cell = (text: string, i: number, head: boolean, r: number) => ({
        content: para(state, { size, bold: head, align: e.align[i] ?? 'left' }, odfText(text)),
        shade: (e.rules === 'shaded' && (head || r % 2 === 1)) || (e.rules === 'grid' && head),
        borders:
          e.rules === 'grid'
            ? GRID
            : e.rules === 'header' && head
              ? 'fo:border-bottom="1pt solid #000000" fo:border-top="none" fo:border-left="none" fo:border-right="none"'
              : NONE,
      });
      return table(
        state,
        width,
        e.widths,
        [
          e.header.map((h, i) => cell(h, i, true, 0)),
          ...e.rows.map((row, r) => row.map((t, i) => cell(t, i, false, r))),
        ],
        1,
      );
    }
  }
}

function pageLayout(name: string, layout: LayoutDoc, withHeader: boolean): string {
  const { width, height } = pageSize(layout);
  const m = layout.paper === 'receipt' ? 14 : 50;
  return `<style:page-layout style:name="${name}"><style:page-layout-properties fo:page-width="${width}pt" fo:page-height="${height}pt" fo:margin-top="${withHeader ? m - 20 : m}pt" fo:margin-bottom="${m - 20}pt" fo:margin-left="${m}pt" fo:margin-right="${m}pt"/>${withHeader ? '<style:header-style><style:header-footer-properties fo:min-height="0pt" fo:margin-bottom="10pt"/></style:header-style>' : ''}<style:footer-style><style:header-footer-properties fo:min-height="0pt" fo:margin-top="8pt"/></style:footer-style></style:page-layout>`;
}

function footer(layout: LayoutDoc): string {
  const fields: Record<string, string> = {
    'page-of':
      'Page <text:page-number text:select-page="current">1</text:page-number> of <text:page-count>1</text:page-count>',
    page: 'Page <text:page-number text:select-page="current">1</text:page-number>',
    slash:
      '<text:page-number text:select-page="current">1</text:page-number> / <text:page-count>1</text:page-count>',
  };
  const content = fields[layout.pageNumbers];
  return content
    ? `<style:footer><text:p text:style-name="Footer">${content}</text:p></style:footer>`
    : '';
}

/** A layout as a flat ODT document for LibreOffice Writer. */
export function renderFodt(layout: LayoutDoc): string {
  const { width } = pageSize(layout);
  const margin = layout.paper === 'receipt' ? 14 : 50;
  const styles = new Styles();
  const state: WriterState = {
    styles,
    base: layout.size,
    tables: 0,
    master: layout.running ? 'First' : undefined,
  };
  const body = layout.body.map((e) => writerElement(state, e, width - 2 * margin)).join('\n');
  const running = layout.running
    ? `<style:header>${layout.running.map((l) => `<text:p text:style-name="Header">${odfText(l)}</text:p>`).join('')}</style:header>`
    : '';
  const masters = layout.running
    ? `<style:master-page style:name="First" style:page-layout-name="pm1" style:next-style-name="Rest">${footer(layout)}</style:master-page><style:master-page style:name="Rest" style:page-layout-name="pm2">${running}${footer(layout)}</style:master-page><style:master-page style:name="Standard" style:page-layout-name="pm1">${footer(layout)}</style:master-page>`
    : `<style:master-page style:name="Standard" style:page-layout-name="pm1">${footer(layout)}</style:master-page>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls><style:font-face style:name="Body" svg:font-family="'${layout.font.family}'"/></office:font-face-decls>
<office:styles>
<style:style style:name="Standard" style:family="paragraph"><style:paragraph-properties fo:margin-top="0pt" fo:margin-bottom="0pt"/><style:text-properties style:font-name="Body" fo:font-size="${layout.size}pt"/></style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="${layout.size - 1}pt" fo:color="#444444"/></style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="end"/><style:text-properties fo:font-size="${layout.size - 1}pt"/></style:style>
</office:styles>
<office:automatic-styles>
${styles.xml.join('\n')}
${pageLayout('pm1', layout, false)}
${pageLayout('pm2', layout, true)}
</office:automatic-styles>
<office:master-styles>${masters}</office:master-styles>
<office:body><office:text>
${body}
</office:text></office:body></office:document>
`;
}

// ---------------------------------------------------------------- Calc

export interface SheetCell {
  readonly text: string;
  readonly bold?: boolean;
  readonly size?: number;
  readonly align?: Align;
  readonly border?: 'grid' | 'below';
  readonly shade?: boolean;
}
export type SheetRow = (SheetCell | undefined)[];

/** The rows an element fills in a grid `cols` wide starting at column `at`. */
export function sheetRows(e: Element, cols: number, base: number): SheetRow[] {
  const put = (cells: SheetCell[], at = 0): SheetRow => {
    const row: SheetRow = Array.from({ length: cols });
    cells.forEach((c, i) => {
      if (at + i < cols) row[at + i] = c;
    });
    return row;
  };
  switch (e.kind) {
    case 'text': {
      const s = e.style ?? {};
      const at = s.align === 'right' ? cols - 1 : 0;
      return e.lines.map((l) =>
        put(
          [{ text: l, bold: s.bold ?? false, size: s.size ?? base, align: s.align ?? 'left' }],
          at,
        ),
      );
    }
    case 'space':
      return Array.from({ length: e.lines }, () => put([]));
    case 'rule':
      return [put(Array.from({ length: cols }, () => ({ text: '', border: 'below' as const })))];
    case 'columns': {
      // Each column gets a share of the grid's columns; its rows are laid side by side.
      const spans = e.widths.map((w) => Math.max(1, Math.round(w * cols)));
      let start = 0;
      const parts = e.columns.map((col, i) => {
        const span = spans[i] ?? 1;
        const rows = col.flatMap((c) => sheetRows(c, span, base));
        const at = start;
        start += span;
        return { rows, at };
      });
      const height = Math.max(0, ...parts.map((p) => p.rows.length));
      return Array.from({ length: height }, (_, r) => {
        const row: SheetRow = Array.from({ length: cols });
        for (const p of parts)
          (p.rows[r] ?? []).forEach((c, i) => {
            if (c && p.at + i < cols) row[p.at + i] = c;
          });
        return row;
      });
    }
    case 'pairs': {
      const right = e.align === 'right';
      switch (e.mode) {
        case 'colon':
          return e.pairs.map(([l, v]) =>
            put(
              [{ text: `${l}: ${v}`, bold: e.boldLabels ?? false, align: e.align ?? 'left' }],
              right ? cols - 1 : 0,
            ),
          );
        case 'tab':
          return e.pairs.map(([l, v]) =>
            right
              ? put(
                  [
                    { text: l, bold: e.boldLabels ?? false },
                    { text: v, align: 'right' },
                  ],
                  Math.max(0, cols - 2),
                )
              : put([{ text: l, bold: e.boldLabels ?? false }, { text: v }]),
          );
        case 'stacked':
          return e.pairs.flatMap(([l, v]) => [
            put([{ text: l, size: base * 0.85 }]),
            put([{ text: v, bold: true }]),
          ]);
        case 'grid':
          return e.pairs.map(([l, v]) =>
            put(
              [
                { text: l, bold: true, border: 'grid', shade: true },
                { text: v, border: 'grid' },
              ],
              right ? Math.max(0, cols - 2) : 0,
            ),
          );
        case 'across':
          return [
            put(
              e.pairs.map(([l]) => ({ text: l, bold: true, border: 'grid' as const, shade: true })),
            ),
            put(e.pairs.map(([, v]) => ({ text: v, border: 'grid' as const }))),
          ];
      }
      return [];
    }
    case 'table': {
      const border = e.rules === 'grid' ? ('grid' as const) : undefined;
      return [
        put(
          e.header.map(
            (h, i) =>
              ({
                text: h,
                bold: true,
                align: e.align[i] ?? 'left',
                border: border ?? (e.rules === 'header' ? 'below' : undefined),
                shade: e.rules === 'shaded' || e.rules === 'grid',
              }) as SheetCell,
          ),
        ),
        ...e.rows.map((row, r) =>
          put(
            row.map((t, i) => ({
              text: t,
              align: e.align[i] ?? 'left',
              ...(border ? { border } : {}),
              shade: e.rules === 'shaded' && r % 2 === 1,
            })),
          ),
        ),
      ];
    }
  }
}

/**
 * Whether the cell at column `i` of a row must fit its column: Calc lets a text overflow into an
 * empty neighbour on the side it grows to (left of a right-aligned text, right of a left-aligned
 * one, both of a centred one) and clips it at a filled one.
 */
function mustFit(r: SheetRow, i: number, cols: number): boolean {
  const c = r[i];
  if (!c) return false;
  const rightBlocked = i === cols - 1 || r[i + 1] !== undefined;
  const leftBlocked = i === 0 || r[i - 1] !== undefined;
  if (c.align === 'right') return leftBlocked;
  if (c.align === 'center') return leftBlocked || rightBlocked;
  return rightBlocked;
}

/**
 * A generous estimate of the width a text takes in points (wider than any of the corpus's fonts
 * draws it: capitals and digits of DejaVu Sans and URW Bookman are the widest), plus Calc's
 * indent on both sides of a cell.
 */
function textWidth(text: string, size: number, bold: boolean): number {
  let em = 0;
  for (const ch of text)
    em += /[A-Z@MW%&]/.test(ch)
      ? 0.8
      : /[a-z0-9$€£¥]/.test(ch)
        ? 0.66
        : ch === ' '
          ? 0.36
          : /[.,:;'|!il]/.test(ch)
            ? 0.36
            : 0.7;
  return em * size * (bold ? 1.12 : 1) + 8;
}

/** Every non-empty text a layout's sheet holds, as Calc must print it in full. */
/**
 * The sheet's grid width: 6 columns (3 on receipt paper), or as many as its widest table has, so
 * that no table loses a column (no family before the wave-3 item tables had a wider one, so
 * their sheets are as they were).
 */
function sheetColumns(layout: LayoutDoc): number {
  const widest = (es: readonly Element[]): number =>
    Math.max(
      0,
      ...es.map((e) =>
        e.kind === 'table'
          ? e.header.length
          : e.kind === 'columns'
            ? Math.max(0, ...e.columns.map(widest))
            : 0,
      ),
    );
  return Math.max(layout.paper === 'receipt' ? 3 : 6, widest(layout.body));
}

export function sheetTexts(layout: LayoutDoc): string[] {
  const cols = sheetColumns(layout);
  return layout.body
    .flatMap((e) => sheetRows(e, cols, layout.size))
    .flatMap((r) => r.map((c) => c?.text ?? ''))
    .filter((t) => t.trim() !== '');
}

export interface FodsOptions {
  /**
   * Column widths from character counts only (bounded at 40 and scaled to the page), which lets
   * Calc clip a text too long for its cell. The held-out half was generated with it and keeps it,
   * so that it stays the corpus it was; the development half measures every text that must fit.
   */
  readonly countedWidths?: boolean;
}

/** A layout as a flat ODS spreadsheet for LibreOffice Calc (printed to PDF, saved as XLSX). */
export function renderFods(layout: LayoutDoc, options: FodsOptions = {}): string {
  const { width, height } = pageSize(layout);
  const margin = layout.paper === 'receipt' ? 14 : 40;
  const cols = sheetColumns(layout);
  const rows = layout.body.flatMap((e) => sheetRows(e, cols, layout.size));
  // Column widths from the widest text each column holds (bounded), scaled to the page width.
  const chars = Array.from({ length: cols }, (_, i) =>
    Math.min(
      40,
      Math.max(
        6,
        // A text overflows into an empty neighbour; a cell it would clip against must fit.
        ...rows.map((r) => (mustFit(r, i, cols) ? (r[i]?.text.length ?? 0) + 2 : 6)),
      ),
    ),
  );
  const sum = chars.reduce((a, b) => a + b, 0);
  const usable = width - 2 * margin - 4;
  // The counted share of the page, widened where a text that cannot overflow needs more; when
  // the columns outgrow the page, Calc scales the print to one page wide (scale-to-X).
  const widths = chars.map((c, i) =>
    options.countedWidths
      ? (c / sum) * usable
      : Math.max(
          (c / sum) * usable,
          ...rows.map((r) => {
            const cell = r[i];
            return cell && mustFit(r, i, cols)
              ? textWidth(cell.text, cell.size ?? layout.size, cell.bold ?? false)
              : 0;
          }),
        ),
  );
  const styles = new Styles();
  const colXml = widths
    .map((w) => {
      const s = styles.add(
        'table-column',
        'co',
        `<style:table-column-properties style:column-width="${w.toFixed(1)}pt"/>`,
      );
      return `<table:table-column table:style-name="${s}"/>`;
    })
    .join('');
  const cellStyle = (c: SheetCell) =>
    styles.add(
      'table-cell',
      'ce',
      `<style:table-cell-properties ${c.border === 'grid' ? GRID : c.border === 'below' ? 'fo:border-bottom="1pt solid #000000"' : NONE}${c.shade ? ' fo:background-color="#e4e4e4"' : ''}/><style:paragraph-properties fo:text-align="${c.align === 'right' ? 'end' : c.align === 'center' ? 'center' : 'start'}"/><style:text-properties style:font-name="Body" fo:font-size="${c.size ?? layout.size}pt"${c.bold ? ' fo:font-weight="bold"' : ''}/>`,
      ' style:parent-style-name="Default"',
    );
  const rowXml = rows
    .map(
      (r) =>
        `<table:table-row>${r
          .map((c) =>
            c
              ? `<table:table-cell table:style-name="${cellStyle(c)}" office:value-type="string"><text:p>${xml(c.text)}</text:p></table:table-cell>`
              : '<table:table-cell/>',
          )
          .join('')}</table:table-row>`,
    )
    .join('\n');
  const numbers: Record<string, string> = {
    'page-of':
      'Page <text:page-number>1</text:page-number> of <text:page-count>1</text:page-count>',
    page: 'Page <text:page-number>1</text:page-number>',
    slash: '<text:page-number>1</text:page-number> / <text:page-count>1</text:page-count>',
  };
  const number = numbers[layout.pageNumbers];
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:font-face-decls><style:font-face style:name="Body" svg:font-family="'${layout.font.family}'"/></office:font-face-decls>
<office:styles><style:style style:name="Default" style:family="table-cell"><style:text-properties style:font-name="Body" fo:font-size="${layout.size}pt"/></style:style></office:styles>
<office:automatic-styles>
${styles.xml.join('\n')}
<style:style style:name="ta1" style:family="table" style:master-page-name="Doc"><style:table-properties table:display="true"/></style:style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="${width}pt" fo:page-height="${height}pt" fo:margin-top="${margin}pt" fo:margin-bottom="${margin - 20}pt" fo:margin-left="${margin}pt" fo:margin-right="${margin}pt" style:print="objects charts drawings" style:scale-to-X="1" style:scale-to-Y="0"/><style:header-style><style:header-footer-properties fo:min-height="0pt"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0pt" fo:margin-top="6pt"/></style:footer-style></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Doc" style:page-layout-name="pm1"><style:header style:display="false"/>${number ? `<style:footer><style:region-right><text:p>${number}</text:p></style:region-right></style:footer>` : '<style:footer style:display="false"/>'}</style:master-page></office:master-styles>
<office:body><office:spreadsheet><table:table table:name="Document" table:style-name="ta1">${colXml}
${rowXml}
</table:table></office:spreadsheet></office:body></office:document>
`;
}
