/**
 * Offline splitting: each page is classified and read for boundary cues, then pages are grouped
 * into contiguous sub-documents. Cues, strongest first: page numbering ("Page 1 of 3" starts a
 * document, "Page 2 of 3" continues one); identifiers (a different invoice, order, receipt or
 * statement number starts a document, the same one continues it); a confident change of
 * classification; a title naming the page's type in its first lines. Every page ends up in
 * exactly one split and the splits cover the document in order.
 */

import type { SplitterConfig } from '../processor-config.ts';
import type { ProposedSplit } from '../provider.ts';
import { labelTokens, tokens } from '../text-tokens.ts';
import type { DocumentPage, DocumentView } from '../view/document-view.ts';
import { letterhead } from './conventions.ts';
import { classifyLines } from './offline-classify.ts';
import { buildTermProfiles, layoutTerms, rank, termCounts } from './term-model.ts';

interface PageCues {
  readonly pageNumber?: { readonly current: number; readonly total?: number };
  readonly identifiers: ReadonlyMap<string, string>;
  readonly classId: string | undefined;
  readonly confidence: number;
  readonly titled: boolean;
  readonly continued: boolean;
  /** The page opens a letter ("Dear …"): continuation pages never do. */
  readonly salutation: boolean;
  /** The organisation heading the page (its letterhead), lower-cased. */
  readonly issuer: string | undefined;
}

const PAGE_OF = /\bpage\s+(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\b/i;
const PAGE_ONLY = /^\s*(?:-\s*)?page\s+(\d{1,3})(?:\s*-)?\s*$/i;
const BARE_OF = /^\s*(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\s*$/i;
const ID_VALUE = /^[A-Za-z0-9][A-Za-z0-9\-/.]{1,30}$/;
const ID_KEYS = new Set(['number', 'id', 'reference']);

function pageNumberOf(page: DocumentPage): PageCues['pageNumber'] {
  for (let i = page.lines.length - 1; i >= 0; i--) {
    const text = page.lines[i]?.text ?? '';
    const m = PAGE_OF.exec(text) ?? BARE_OF.exec(text);
    if (m) return { current: Number(m[1]), total: Number(m[2]) };
    const only = PAGE_ONLY.exec(text);
    if (only) return { current: Number(only[1]) };
  }
  return undefined;
}

function identifiersOf(page: DocumentPage): Map<string, string> {
  const ids = new Map<string, string>();
  for (const field of page.fields) {
    const label = labelTokens(field.label);
    if (!label.some((t) => ID_KEYS.has(t))) continue;
    const value = field.value.trim().split(/\s{2,}/)[0] ?? '';
    if (!ID_VALUE.test(value) || !/\d/.test(value)) continue;
    const key = label.filter((t) => !ID_KEYS.has(t)).join(' ') || 'document';
    if (!ids.has(key)) ids.set(key, value);
  }
  return ids;
}

function typeTerms(type: string): string[] {
  const extra: Readonly<Record<string, string[]>> = {
    letter: ['dear'],
    bank_statement: ['statement'],
  };
  return [...tokens(type), ...(extra[type.toLowerCase().replace(/[\s-]+/g, '_')] ?? [])];
}

/** The organisation heading a page, when it stands out as a letterhead does. */
function prominentIssuer(page: DocumentPage): string | undefined {
  const found = letterhead(page);
  return found?.prominent ? found.value.toLowerCase() : undefined;
}

/** Splits the pages of one file. */
function splitPages(
  pages: readonly DocumentPage[],
  config: SplitterConfig,
  fileId: string | undefined,
): ProposedSplit[] {
  const classifications = config.splitClassifications;
  const profiles = buildTermProfiles(classifications, config.splitRules);
  const cues: PageCues[] = pages.map((page) => {
    const lines = page.lines.map((l) => l.text);
    const ranking = rank(profiles, termCounts(lines, 6, layoutTerms([page])));
    const best = ranking.best?.classification;
    const title = new Set(lines.slice(0, 10).flatMap((l) => tokens(l)));
    const pageNumber = pageNumberOf(page);
    return {
      ...(pageNumber ? { pageNumber } : {}),
      identifiers: identifiersOf(page),
      classId: best?.id,
      confidence: ranking.confidence,
      titled: best !== undefined && typeTerms(best.type).some((t) => title.has(t)),
      continued: lines.slice(0, 4).some((l) => /\(?continued\)?|\bcont(?:\.|inued)\b/i.test(l)),
      salutation: lines
        .slice(0, 30)
        .some((l) => /^(dear|to whom it may concern)\b/i.test(l.trim())),
      issuer: prominentIssuer(page),
    };
  });
  const starts: number[] = [0];
  const reasons = new Map<number, string>([[0, 'first page']]);
  let segmentIds = new Map(cues[0]?.identifiers ?? []);
  let segmentClass = cues[0]?.classId;
  let segmentIssuer = cues[0]?.issuer;
  for (let i = 1; i < pages.length; i++) {
    const cue = cues[i];
    if (!cue) continue;
    let start: string | undefined;
    let continues = false;
    if (cue.pageNumber) {
      if (cue.pageNumber.current === 1) start = 'page numbering restarts at 1';
      else continues = true;
    }
    if (!start && !continues) {
      for (const [key, value] of cue.identifiers) {
        const current = segmentIds.get(key);
        if (current !== undefined && current !== value) {
          start = `${key || 'document'} number changes from ${current} to ${value}`;
          break;
        }
        if (current === value) continues = true;
      }
    }
    if (!start && !continues && cue.identifiers.size > 0 && segmentIds.size > 0) {
      // Two documents may name their number differently ("Receipt #", "Trans #"): a page whose
      // identifiers share no name with the document's, and differ from all of its values, is
      // another document's first page.
      const values = new Set(segmentIds.values());
      const shared = [...cue.identifiers.keys()].some((k) => segmentIds.has(k));
      if (!shared && ![...cue.identifiers.values()].some((v) => values.has(v)))
        start = 'the page has other identifiers than the document before';
    }
    if (!start && !continues && cue.continued) continues = true;
    if (!start && !continues && cue.issuer && segmentIssuer && cue.issuer !== segmentIssuer)
      start = 'another organisation heads the page';
    if (!start && !continues && cue.salutation) start = 'a salutation opens a new letter';
    if (!start && !continues && cue.classId !== segmentClass && cue.confidence >= 0.5) {
      start = 'the page reads as a different kind of document';
    }
    if (!start && !continues && cue.titled && cue.confidence >= 0.5 && cue.identifiers.size > 0) {
      start = 'a new titled document begins';
    }
    if (start) {
      // Blank pages right before a document's first page are its own (a leading blank page some
      // producers emit); a split of blank pages alone is none.
      let at = i;
      const from = starts[starts.length - 1] ?? 0;
      while (at > from && pages[at - 1]?.lines.length === 0) at--;
      if (at === from) {
        starts.pop();
        reasons.delete(from);
      }
      starts.push(at);
      reasons.set(at, start);
      segmentIds = new Map(cue.identifiers);
      segmentClass = cue.classId;
      segmentIssuer = cue.issuer;
    } else {
      for (const [k, v] of cue.identifiers) if (!segmentIds.has(k)) segmentIds.set(k, v);
      segmentIssuer ??= cue.issuer;
      if (
        segmentClass === undefined ||
        (cues[starts[starts.length - 1] ?? 0]?.confidence ?? 0) < 0.5
      ) {
        segmentClass = cue.classId ?? segmentClass;
      }
    }
  }
  return starts.map((s, k) => {
    const e = (starts[k + 1] ?? pages.length) - 1;
    const segment = pages.slice(s, e + 1);
    const output = classifyLines(
      segment.flatMap((p) => p.lines.map((l) => l.text)),
      {
        classifications,
        ...(config.splitRules === undefined ? {} : { classificationRules: config.splitRules }),
      },
      layoutTerms(segment),
    );
    const firstPage = segment[0]?.number ?? s + 1;
    const lastPage = segment[segment.length - 1]?.number ?? e + 1;
    const ids = new Map<string, string>();
    for (let i = s; i <= e; i++)
      for (const [key, v] of cues[i]?.identifiers ?? []) if (!ids.has(key)) ids.set(key, v);
    const preferred =
      [...ids.entries()].find(([key]) => tokens(output.type).some((t) => key.includes(t))) ??
      [...ids.entries()][0];
    const identifier = preferred?.[1] ?? `${output.type}_${firstPage}_${lastPage}`;
    const observation =
      `Pages ${firstPage}-${lastPage} read as ${output.type} (confidence ${output.confidence.toFixed(2)}); ` +
      `starts here because ${reasons.get(s) ?? 'of a boundary cue'}.`;
    return {
      classificationId: output.id,
      type: output.type,
      startPage: firstPage,
      endPage: lastPage,
      identifier,
      observation,
      confidence: output.confidence,
      ...(fileId === undefined ? {} : { fileId }),
    };
  });
}

/** Splits a document view: file by file, each into contiguous splits covering its pages. */
export function offlineSplit(doc: DocumentView, config: SplitterConfig): ProposedSplit[] {
  const groups = new Map<string, DocumentPage[]>();
  for (const page of doc.pages) {
    const key = page.fileId ?? '';
    const list = groups.get(key) ?? [];
    list.push(page);
    groups.set(key, list);
  }
  const splits: ProposedSplit[] = [];
  for (const [key, pages] of groups)
    splits.push(...splitPages(pages, config, key === '' ? undefined : key));
  return splits;
}
