import { load } from 'cheerio';
import type { DraftBlock } from '../draft-document.ts';
import { ParseFailure } from '../parse-failure.ts';
import { capHtmlDepth } from './html-depth.ts';
import { markdownTable } from './markdown-table.ts';

/** The domhandler node shapes we walk (cheerio's parse tree). */
interface HtmlNode {
  type: string;
  data?: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: HtmlNode[];
}

const SKIP = new Set([
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'svg',
  'math',
  'iframe',
  'object',
  'button',
  'select',
  'input',
  'textarea',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'ul',
  'caption',
  'img',
]);
const TEXT_BLOCK = new Set(['p', 'dt', 'dd', 'figcaption', 'summary', 'caption', 'address']);

/**
 * Element nesting kept as structure; deeper content is flattened into the text of its ancestor at
 * this depth. Real pages nest 20 to 60 elements deep; 128 leaves room for generated markup while
 * the recursive walks below stay shallow whatever the input (300,000 nested `<div>`s included).
 */
export const MAX_HTML_DEPTH = 128;

/** The text of a subtree, in document order, without recursion (for subtrees of any depth). */
function flatText(node: HtmlNode): string {
  let out = '';
  const stack: HtmlNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as HtmlNode;
    if (next.type === 'text') {
      out += collapse(next.data ?? '');
      continue;
    }
    if (next.type !== 'tag' && next !== node) continue;
    if (SKIP.has(next.name ?? '')) continue;
    if (BLOCK.has(next.name ?? '') || next.name === 'br') out += ' ';
    const children = next.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as HtmlNode);
  }
  return out;
}

/**
 * Flattens every element deeper than `maxDepth` into a text node of its plain text, so that the
 * tree the walks below recurse into is at most `maxDepth` deep. Linear in the size of the tree.
 */
function flattenDeep(root: HtmlNode, maxDepth: number = MAX_HTML_DEPTH): void {
  const stack: [HtmlNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [HtmlNode, number];
    const children = node.children;
    if (children === undefined || children.length === 0) continue;
    if (depth >= maxDepth) {
      node.children = [{ type: 'text', data: flatText(node) }];
      continue;
    }
    for (const child of children) if (child.type === 'tag') stack.push([child, depth + 1]);
  }
}

/** Options of {@link htmlToBlocks}. */
export interface HtmlBlockOptions {
  readonly figures: boolean;
  readonly maxCells: number;
  readonly signal: AbortSignal;
}

function collapse(text: string): string {
  return text.replace(/[ \t\r\n\f\u00a0]+/g, ' ');
}

/**
 * Plain text of a subtree (table cells, code). Outside code, blocks and cells inside it are
 * words apart: a cell's paragraphs (`<td><p>Jane Doe</p><p>1 Main St</p></td>`, as mammoth writes
 * a Word cell) are not glued into one word.
 */
function plainText(node: HtmlNode, preserve = false): string {
  if (node.type === 'text') return preserve ? (node.data ?? '') : collapse(node.data ?? '');
  if (node.type !== 'tag' || SKIP.has(node.name ?? '')) return '';
  if (node.name === 'br') return preserve ? '\n' : ' ';
  let out = '';
  for (const child of node.children ?? []) out += plainText(child, preserve);
  const name = node.name ?? '';
  return !preserve && (BLOCK.has(name) || name === 'td' || name === 'th') ? ` ${out} ` : out;
}

/** The rows of a table (also inside thead, tbody, tfoot), each as its td and th cells. */
function tableRows(node: HtmlNode): HtmlNode[][] {
  const rows: HtmlNode[][] = [];
  const collect = (parent: HtmlNode) => {
    for (const child of parent.children ?? []) {
      if (child.type !== 'tag') continue;
      if (child.name === 'tr') {
        rows.push(
          (child.children ?? []).filter(
            (cell) => cell.type === 'tag' && (cell.name === 'td' || cell.name === 'th'),
          ),
        );
      } else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
        collect(child);
      }
    }
  };
  collect(node);
  return rows;
}

/** Whether a subtree holds a table below its root (iterative: any depth). */
function holdsTable(node: HtmlNode): boolean {
  const stack = [...(node.children ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as HtmlNode;
    if (next.type !== 'tag') continue;
    if (next.name === 'table') return true;
    for (const child of next.children ?? []) stack.push(child);
  }
  return false;
}

/**
 * A table used for layout rather than for data: a cell holds a table of its own, or the table is
 * one row whose cells stack several blocks (a letterhead beside an address block; python-docx
 * documents and HTML e-mails are laid out so). Its cells are read as blocks in reading order
 * instead of flattened into one row of glued cells.
 */
function isLayoutTable(rows: readonly (readonly HtmlNode[])[]): boolean {
  if (rows.some((row) => row.some(holdsTable))) return true;
  const blocksIn = (cell: HtmlNode) =>
    (cell.children ?? []).filter((c) => c.type === 'tag' && BLOCK.has(c.name ?? '')).length;
  return rows.length === 1 && (rows[0] ?? []).some((cell) => blocksIn(cell) >= 2);
}

function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]])/g, '\\$1');
}

/** Inline markdown of a subtree: emphasis, code, links, line breaks. */
function inline(node: HtmlNode, figuresOn: boolean): { md: string; text: string } {
  if (node.type === 'text') {
    const text = collapse(node.data ?? '');
    return { md: escapeInline(text), text };
  }
  if (node.type !== 'tag' || SKIP.has(node.name ?? '')) return { md: '', text: '' };
  const name = node.name ?? '';
  if (name === 'br') return { md: '  \n', text: '\n' };
  if (name === 'img') {
    // With figures on, images become figure blocks of their own (see collectFigures).
    if (figuresOn) return { md: '', text: '' };
    const alt = node.attribs?.alt ?? '';
    return {
      md: alt === '' ? '' : `![${escapeInline(alt)}](${node.attribs?.src ?? ''})`,
      text: alt,
    };
  }
  let md = '';
  let text = '';
  for (const child of node.children ?? []) {
    const part = inline(child, figuresOn);
    md += part.md;
    text += part.text;
  }
  const trimmed = md.trim();
  if (trimmed === '') return { md, text };
  switch (name) {
    case 'b':
    case 'strong':
      // Bold inside bold is bold once.
      if (trimmed.startsWith('**') && trimmed.endsWith('**')) return { md, text };
      return { md: md.replace(trimmed, `**${trimmed}**`), text };
    case 'i':
    case 'em':
      return { md: md.replace(trimmed, `*${trimmed}*`), text };
    case 'code':
    case 'kbd':
      return { md: `\`${text.trim()}\``, text };
    case 'a': {
      const href = node.attribs?.href;
      return { md: href ? `[${trimmed}](${href})` : md, text };
    }
    default:
      return { md, text };
  }
}

function finish(md: string, text: string): { md: string; text: string } {
  return {
    md: md
      .replace(/[ \t]*\n[ \t]*/g, (m) => (m.includes('  \n') ? '  \n' : '\n'))
      .replace(/ {2,}(?!\n)/g, ' ')
      .trim(),
    text: text
      .replace(/[ \t]+/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .trim(),
  };
}

/**
 * Turns HTML into blocks in document order: headings, paragraphs, list items, code, quotes,
 * tables (with cells) and images (figures). Each block carries its markdown; the walk is linear
 * in the size of the document (no nested re-rendering of tables).
 */
export function htmlToBlocks(html: string, options: HtmlBlockOptions): DraftBlock[] {
  // Parsers are quadratic in the nesting depth: deeper markup is flattened before they see it.
  const $ = load(capHtmlDepth(html, MAX_HTML_DEPTH).html);
  const inlineOf = (node: HtmlNode) => inline(node, options.figures);
  const root = $.root()[0] as unknown as HtmlNode;
  flattenDeep(root);
  const blocks: DraftBlock[] = [];
  let cells = 0;
  let gridCells = 0;
  let visited = 0;

  const textBlock = (md: string, text: string, extra: Partial<DraftBlock> = {}) => {
    const done = finish(md, text);
    if (done.text === '' && done.md === '') return;
    blocks.push({
      type: 'text',
      content: done.text,
      markdown: done.md,
      details: { type: 'text_details' },
      ...extra,
    });
  };

  const table = (cellRows: readonly (readonly HtmlNode[])[]) => {
    const rows: string[][] = [];
    for (const cellRow of cellRows) {
      const row: string[] = [];
      for (const cell of cellRow) {
        row.push(collapse(plainText(cell)).trim());
        const span = Math.min(Number.parseInt(cell.attribs?.colspan ?? '1', 10) || 1, 1000);
        for (let s = 1; s < span; s++) row.push('');
      }
      cells += row.length;
      if (cells > options.maxCells) {
        throw new ParseFailure(
          'FILE_SIZE_TOO_LARGE',
          `The document has more than ${options.maxCells} table cells (limits.maxCells).`,
        );
      }
      rows.push(row);
    }
    if (rows.length === 0) return;
    const columnCount = rows.reduce((max, row) => Math.max(max, row.length), 0);
    // Short rows are padded to the widest: a ragged table of a few KB (one row of 3,000 cells
    // over 1,000 rows of one) would otherwise become millions of cells.
    gridCells += rows.length * columnCount;
    if (gridCells > options.maxCells) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The document's tables fill more than ${options.maxCells} cells once their rows are padded to their widest (limits.maxCells).`,
      );
    }
    const markdown = markdownTable(rows);
    const children: DraftBlock[] = [];
    rows.forEach((row, r) => {
      for (let c = 0; c < columnCount; c++) {
        children.push({
          type: 'table_cell',
          content: row[c] ?? '',
          markdown: '',
          details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
        });
      }
    });
    blocks.push({
      type: 'table',
      content: markdown,
      markdown,
      details: { type: 'table_details', rowCount: rows.length, columnCount },
      children,
    });
  };

  const walk = (node: HtmlNode, list: { depth: number; ordered: boolean } | undefined) => {
    if ((++visited & 0xfff) === 0) options.signal.throwIfAborted();
    let md = '';
    let text = '';
    const flush = () => {
      textBlock(md, text);
      md = '';
      text = '';
    };
    for (const child of node.children ?? []) {
      if (child.type === 'text') {
        const part = inlineOf(child);
        md += part.md;
        text += part.text;
        continue;
      }
      if (child.type !== 'tag') continue;
      const name = child.name ?? '';
      if (SKIP.has(name)) continue;
      if (!BLOCK.has(name)) {
        const part = inlineOf(child);
        md += part.md;
        text += part.text;
        continue;
      }
      flush();
      handleBlock(child, name, list);
    }
    flush();
  };

  const handleBlock = (
    node: HtmlNode,
    name: string,
    list: { depth: number; ordered: boolean } | undefined,
  ) => {
    if (/^h[1-6]$/.test(name)) {
      const level = Number(name.slice(1));
      const part = finish(inlineOf(node).md, inlineOf(node).text);
      if (part.text !== '') {
        blocks.push({
          type: 'text',
          content: part.text,
          markdown: `${'#'.repeat(level)} ${part.md}`,
          details: { type: 'text_details' },
          headingLevel: level,
        });
      }
    } else if (TEXT_BLOCK.has(name)) {
      const part = inlineOf(node);
      textBlock(part.md, part.text);
      collectFigures(node);
    } else if (name === 'pre') {
      const code = plainText(node, true).replace(/\n+$/, '');
      if (code.trim() !== '') {
        blocks.push({
          type: 'text',
          content: code,
          markdown: `\`\`\`\n${code}\n\`\`\``,
          details: { type: 'text_details' },
        });
      }
    } else if (name === 'blockquote') {
      const before = blocks.length;
      walk(node, list);
      for (let i = before; i < blocks.length; i++) {
        const block = blocks[i];
        if (block && block.type === 'text') {
          blocks[i] = {
            ...block,
            markdown: block.markdown
              .split('\n')
              .map((l) => `> ${l}`)
              .join('\n'),
          };
        }
      }
    } else if (name === 'ul' || name === 'ol') {
      const depth = list ? list.depth + 1 : 0;
      for (const item of node.children ?? []) {
        if (item.type === 'tag' && item.name === 'li') {
          handleItem(item, { depth, ordered: name === 'ol' });
        } else if (item.type === 'tag' && !SKIP.has(item.name ?? '')) {
          walk({ type: 'tag', name: 'div', children: [item] }, list);
        }
      }
    } else if (name === 'li') {
      handleItem(node, list ?? { depth: 0, ordered: false });
    } else if (name === 'table') {
      const rows = tableRows(node);
      if (isLayoutTable(rows)) for (const row of rows) for (const cell of row) walk(cell, list);
      else table(rows);
    } else if (name === 'img') {
      figure(node);
    } else if (name === 'hr') {
      // A thematic break separates blocks already.
    } else {
      walk(node, list);
    }
  };

  const figure = (node: HtmlNode) => {
    if (!options.figures) return;
    const alt = node.attribs?.alt ?? '';
    blocks.push({
      type: 'figure',
      content: alt,
      markdown: `![${escapeInline(alt)}](${node.attribs?.src ?? ''})`,
      details: { type: 'figure_details', figureType: 'image' },
    });
  };

  const collectFigures = (node: HtmlNode) => {
    for (const child of node.children ?? []) {
      if (child.type !== 'tag') continue;
      if (child.name === 'img') figure(child);
      else collectFigures(child);
    }
  };

  const handleItem = (item: HtmlNode, list: { depth: number; ordered: boolean }) => {
    const own: HtmlNode[] = [];
    const nested: HtmlNode[] = [];
    for (const child of item.children ?? []) {
      if (
        child.type === 'tag' &&
        (child.name === 'ul' || child.name === 'ol' || child.name === 'table')
      )
        nested.push(child);
      else own.push(child);
    }
    const part = finish(
      own.map((n) => inlineOf(n).md).join(''),
      own.map((n) => inlineOf(n).text).join(''),
    );
    if (part.text !== '') {
      const marker = list.ordered ? '1.' : '-';
      blocks.push({
        type: 'text',
        content: part.text,
        markdown: `${'  '.repeat(list.depth)}${marker} ${part.md}`,
        details: { type: 'text_details' },
      });
    }
    for (const child of nested) handleBlock(child, child.name ?? '', list);
  };

  walk(root, undefined);
  return blocks;
}
