import type { DraftBlock, DraftDocument, DraftUnit } from './draft-document.ts';
import type { TableCellDetails } from './parse-output.ts';

/**
 * One part of a draft crossing a reader's channel (decision 0032): a reader sends its draft as a
 * sequence of these, each of about {@link PART_BUDGET} bytes, and then the draft without its
 * units; the caller puts them back together with a {@link DraftAssembler}. A sheet of 600,000
 * cells sent in one message existed three times at once (the reader's draft, the serialised
 * message on both sides of the pipe, the caller's copy).
 */
export type DraftPart =
  /** A new unit, its blocks still to come. */
  | { readonly part: 'unit'; readonly unit: DraftUnit }
  /** Blocks of the current unit, in order. */
  | ({ readonly part: 'blocks' } & BlockList)
  /** Children of the current unit's last block, in order. */
  | ({ readonly part: 'children' } & BlockList)
  /** Columnar cells of the current unit's last block, in order. */
  | {
      readonly part: 'cells';
      readonly contents: readonly string[];
      readonly details: readonly TableCellDetails[];
    };

/**
 * Blocks as a part carries them: a block whose markdown is its content (a table: a sheet's
 * markdown is 5.9 MB for 600,000 cells) goes with `markdown: ''` and its index in `sameMarkdown`,
 * so that the text crosses once.
 */
export interface BlockList {
  readonly blocks: readonly DraftBlock[];
  readonly sameMarkdown?: readonly number[];
}

/** `blocks` as a part carries them (see {@link BlockList}). */
function blockList(blocks: readonly DraftBlock[]): BlockList {
  const sameMarkdown: number[] = [];
  const sent = blocks.map((block, index) => {
    if (block.markdown === '' || block.markdown !== block.content) return block;
    sameMarkdown.push(index);
    return { ...block, markdown: '' };
  });
  return sameMarkdown.length > 0 ? { blocks: sent, sameMarkdown } : { blocks };
}

/** The blocks a {@link BlockList} stands for, restored in place (they are this side's copies). */
function restored(list: BlockList): readonly DraftBlock[] {
  for (const index of list.sameMarkdown ?? []) {
    const block = list.blocks[index] as { markdown: string; content: string } | undefined;
    if (!block) throw new Error('Draft blocks name a block they do not carry.');
    block.markdown = block.content;
  }
  return list.blocks;
}

/**
 * What one part may carry, by the estimate below (string lengths and a fixed cost per object):
 * large enough that a part's own cost (a message, its header, a deserialisation) is small against
 * its content, small enough that neither side holds more than a few of them besides the draft.
 * A single block larger than this (a table's markdown) still goes whole, in its own part.
 */
export const PART_BUDGET = 1 << 20;

/**
 * Blocks, child blocks and columnar cells past which a draft is large: its reader collects its
 * garbage before sending it (`format-worker.ts`), and is ended after it rather than kept warm
 * (`contained-format.ts`). Counted by items, not parts: a workbook of many small sheets sends
 * two small parts a sheet.
 */
export const LARGE_DRAFT_ITEMS = 150_000;

/** The blocks, child blocks and columnar cells of `draft`, as its parts carry them. */
export function draftItems(draft: DraftDocument): number {
  let items = 0;
  for (const unit of draft.units) {
    items += unit.blocks.length;
    for (const block of unit.blocks) {
      items += (block.children?.length ?? 0) + (block.cells?.contents.length ?? 0);
    }
  }
  return items;
}

/** About what a block costs serialised, without its children and cells. */
function ownCost(block: DraftBlock): number {
  const markdown = block.markdown === block.content ? 0 : block.markdown.length;
  return 128 + block.content.length + markdown + (block.words?.length ?? 0) * 96;
}

/** About what a columnar cell costs serialised. */
function cellCost(content: string | undefined): number {
  return 80 + (content?.length ?? 0);
}

/** About what a block costs serialised, with its children and cells. */
function fullCost(block: DraftBlock): number {
  let cost = ownCost(block);
  if (block.children) for (const child of block.children) cost += fullCost(child);
  if (block.cells) for (const content of block.cells.contents) cost += cellCost(content);
  return cost;
}

/** Drops what was sent from a draft's array, so that the reader may collect it meanwhile. */
function release(list: readonly unknown[], from: number, to: number): void {
  (list as unknown[]).fill(undefined, from, to);
}

/**
 * Splits indices 0 … count − 1 into ranges [from, to) of at most `budget` by `cost` (one index
 * over it goes alone).
 */
function* ranges(
  count: number,
  cost: (index: number) => number,
  budget: number,
): Generator<readonly [number, number], void, undefined> {
  let from = 0;
  let spent = 0;
  for (let i = 0; i < count; i++) {
    const itemCost = cost(i);
    if (i > from && spent + itemCost > budget) {
      yield [from, i];
      from = i;
      spent = 0;
    }
    spent += itemCost;
  }
  if (from < count) yield [from, count];
}

/**
 * The parts of `draft` in the order a {@link DraftAssembler} takes them. What each part carries
 * is released from `draft` once the consumer has taken it (sent it): the draft is spent after.
 */
export function* draftParts(
  draft: DraftDocument,
  budget: number = PART_BUDGET,
): Generator<DraftPart, void, undefined> {
  for (const unit of draft.units) {
    yield { part: 'unit', unit: { ...unit, blocks: [] } };
    const { blocks } = unit;
    const costs = blocks.map((block) => fullCost(block));
    for (const [from, to] of ranges(blocks.length, (i) => costs[i] as number, budget)) {
      const block = blocks[from] as DraftBlock;
      if (to - from > 1 || (costs[from] as number) <= budget) {
        yield { part: 'blocks', ...blockList(blocks.slice(from, to)) };
        release(blocks, from, to);
        continue;
      }
      // A large table: the block alone first, then its children and cells in parts of their own.
      const { children, cells } = block;
      yield {
        part: 'blocks',
        ...blockList([
          {
            ...block,
            ...(children ? { children: [] } : {}),
            ...(cells ? { cells: { contents: [], details: [] } } : {}),
          },
        ]),
      };
      release(blocks, from, to);
      if (children) {
        for (const [start, end] of ranges(
          children.length,
          (c) => fullCost(children[c] as DraftBlock),
          budget,
        )) {
          yield { part: 'children', ...blockList(children.slice(start, end)) };
          release(children, start, end);
        }
      }
      if (cells) {
        const { contents, details } = cells;
        for (const [start, end] of ranges(contents.length, (c) => cellCost(contents[c]), budget)) {
          yield {
            part: 'cells',
            contents: contents.slice(start, end),
            details: details.slice(start, end),
          };
          release(contents, start, end);
          release(details, start, end);
        }
      }
    }
  }
}

/** The draft without its units: what follows its parts, as the reader's final reply. */
export function draftHead(draft: DraftDocument): DraftDocument {
  return { ...draft, units: [] };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Puts a draft back together from its {@link draftParts}, in the order they were made. */
export class DraftAssembler {
  readonly #units: DraftUnit[] = [];
  #blocks: DraftBlock[] | undefined;
  #last: Mutable<DraftBlock> | undefined;
  /**
   * One copy of each `type` value. Deserialising gives every object its own copy of its strings:
   * each of a sheet's cells held its own 'table_cell_details' (40 bytes; 155 bytes a cell in
   * all, 115 with this).
   */
  readonly #types = new Map<string, string>();

  #shared(type: string): string {
    const known = this.#types.get(type);
    if (known !== undefined) return known;
    this.#types.set(type, type);
    return type;
  }

  /** Shares the `type` strings of a block, its details and its children's and cells' details. */
  #shareTypes(block: DraftBlock): void {
    (block as { type: string }).type = this.#shared(block.type);
    (block.details as { type: string }).type = this.#shared(block.details.type);
    if (block.children) for (const child of block.children) this.#shareTypes(child);
    if (block.cells) this.#shareCellTypes(block.cells.details);
  }

  #shareCellTypes(details: readonly TableCellDetails[]): void {
    for (const cell of details) (cell as { type: string }).type = this.#shared(cell.type);
  }

  /** Takes the next part; throws when it cannot follow the parts before it. */
  add(part: DraftPart): void {
    if (part.part === 'unit') {
      const blocks: DraftBlock[] = [];
      this.#units.push({ ...part.unit, blocks });
      this.#blocks = blocks;
      this.#last = undefined;
      return;
    }
    if (part.part === 'blocks') {
      const blocks = this.#blocks;
      if (!blocks) throw new Error('Draft blocks arrived before their unit.');
      for (const block of restored(part)) {
        this.#shareTypes(block);
        blocks.push(block);
      }
      this.#last = blocks[blocks.length - 1];
      return;
    }
    const last = this.#last;
    if (part.part === 'children') {
      const children = last?.children as DraftBlock[] | undefined;
      if (!children) throw new Error('Draft children arrived without their block.');
      for (const child of restored(part)) {
        this.#shareTypes(child);
        children.push(child);
      }
      return;
    }
    const cells = last?.cells as { contents: string[]; details: TableCellDetails[] } | undefined;
    if (!cells) throw new Error('Draft cells arrived without their block.');
    this.#shareCellTypes(part.details);
    for (const content of part.contents) cells.contents.push(content);
    for (const details of part.details) cells.details.push(details);
  }

  /** The whole draft, given its head (the reader's final reply). */
  finish(head: DraftDocument): DraftDocument {
    return { ...head, units: this.#units };
  }
}
