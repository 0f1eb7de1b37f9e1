/**
 * Offline splitting: each page is classified and read for boundary cues, then pages are grouped
 * into contiguous sub-documents. Cues, strongest first: page numbering ("Page 1 of 3" starts a
 * document, "Page 2 of 3" continues one); the document's own dates (another statement period or
 * invoice date starts a document); identifiers (a different invoice, order, receipt or
 * statement number starts a document, the same one continues it); a confident change of
 * classification; a title naming the page's type in its first lines. Every page ends up in
 * exactly one split and the splits cover the document in order.
 */

import type { SplitterConfig } from '../processor-config.ts';
import type { ClassifyOutput, ProposedSplit } from '../provider.ts';
import { labelTokens, tokens } from '../text-tokens.ts';
import type { DocumentPage, DocumentView } from '../view/document-view.ts';
import { letterhead } from './conventions.ts';
import { classifyRanking, openingLines, pageLines, rankLines } from './offline-classify.ts';
import {
  buildTermProfiles,
  isOtherType,
  layoutTerms,
  type Ranking,
  rank,
  solidWords,
  type TermProfile,
  termCounts,
} from './term-model.ts';

interface PageCues {
  readonly pageNumber?: { readonly current: number; readonly total?: number };
  readonly identifiers: ReadonlyMap<string, string>;
  /** The document's own dates by label ("statement period", "invoice date"). */
  readonly dates: ReadonlyMap<string, string>;
  /** The page states an opening balance, a closing one (see balancesOf). */
  readonly opens: boolean;
  readonly closes: boolean;
  readonly classId: string | undefined;
  readonly confidence: number;
  /** The page's score for each classification, and its best. */
  readonly scores: ReadonlyMap<string, number>;
  readonly bestScore: number;
  readonly titled: boolean;
  readonly continued: boolean;
  /** The page opens a letter ("Dear …"): continuation pages never do. */
  readonly salutation: boolean;
  /** The organisation heading the page (its letterhead), lower-cased. */
  readonly issuer: string | undefined;
}

/**
 * An untitled page reads as another kind of document than the one before only when its score for
 * the kind before is below this share of its best.
 */
const KIND_MARGIN = 0.5;

const PAGE_OF = /\b(?:page|pg\.?|p\.|sheet)\s*(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\b/i;
const PAGE_ONLY = /^\s*(?:-\s*)?page\s+(\d{1,3})(?:\s*-)?\s*$/i;
const BARE_OF = /^\s*(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\s*$/i;
const ID_VALUE = /^[A-Za-z0-9][A-Za-z0-9\-/.]{1,30}$/;
const ID_KEYS = new Set(['number', 'id', 'reference']);
/**
 * A document's name alone as the label of an identifier ("Check    TRN-990789", "Ticket
 * 9779-2903", "Bill: R240786", "Order 4471") labels its number as "Check No." would.
 */
const DOCUMENT_NOUNS = new Set([
  'receipt',
  'invoice',
  'bill',
  'check',
  'cheque',
  'order',
  'purchase_order',
  'transaction',
  'voucher',
  'docket',
  'folio',
]);

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
    const named = label.length === 1 && DOCUMENT_NOUNS.has(label[0] as string);
    if (!named && !label.some((t) => ID_KEYS.has(t))) continue;
    const value = field.value.trim().split(/\s{2,}/)[0] ?? '';
    if (!ID_VALUE.test(value) || !/\d/.test(value)) continue;
    const key = label.filter((t) => !ID_KEYS.has(t)).join(' ') || 'document';
    if (!ids.has(key)) ids.set(key, value);
  }
  return ids;
}

/**
 * Words of a date's label that make it some other date than the document's own (a due date, a
 * transaction's, a delivery's): such dates may differ between the pages of one document.
 */
const NOT_OWN_DATE = new Set([
  'due',
  'deliver',
  'shipping',
  'payment',
  'transaction',
  'value',
  'posting',
  'birth',
  'expiry',
  'valid',
  'order',
  'purchase_order',
]);

/**
 * The dates a page states for its document ("Statement Period: 01/03/2024 - 31/03/2024",
 * "Invoice Date: 2 May 2024"), by label: one document states one of each, so a page that
 * states another is another document's, even when the account or the issuer is the same.
 */
function datesOf(page: DocumentPage): Map<string, string> {
  const dates = new Map<string, string>();
  for (const field of page.fields) {
    const label = labelTokens(field.label);
    if (label.some((t) => NOT_OWN_DATE.has(t))) continue;
    const value = (field.value.trim().split(/\s{2,}/)[0] ?? '').toLowerCase();
    if (!DATE_LIKE.test(value)) continue;
    // A period is the document's whatever its label ("Statement", "Covering"); a single date
    // only by a label that says date, period, statement or month, or one end of a period.
    const own =
      PERIOD.test(value) ||
      label.some((t) => t === 'date' || t === 'period' || t === 'statement' || t === 'month') ||
      /^(from|to|as of|as at)$/i.test(field.label.trim().replace(/:$/, ''));
    if (!own) continue;
    const key = label.join(' ') || field.label.trim().toLowerCase().replace(/:$/, '');
    // Compared as written: a period without its start's year ("1 Mar - 31 Mar 2024") or a
    // month ("March 2024") is no single date to parse.
    if (!dates.has(key)) dates.set(key, value.replace(/\s+/g, ' '));
  }
  return dates;
}

/** A date, or a month of a year ("March 2024", "03/2024"), somewhere in a value. */
const DATE_LIKE =
  /\b\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:\d{1,2}\b|\d{4}\b)|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/;
/** Two ends of a period ("01/03/2024 - 31/03/2024", "1 Mar to 31 Mar 2024"). */
const PERIOD = /\d.*\s(?:-|–|—|to|until|through)\s.*\d|\d\s*[–—]\s*\d/;

/**
 * Whether a page states a balance that opens a statement or one that closes it ("Opening
 * balance", "Closing balance", and their other words); a balance carried or brought forward
 * between the pages of one statement is neither.
 */
function balancesOf(page: DocumentPage): { opens: boolean; closes: boolean } {
  let opens = false;
  let closes = false;
  for (const field of page.fields) {
    if (/forward/i.test(field.label)) continue;
    const label = labelTokens(field.label);
    if (!label.includes('balance')) continue;
    if (label.includes('opening')) opens = true;
    if (label.includes('closing')) closes = true;
  }
  return { opens, closes };
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

/**
 * A part that reads too weakly to be given a type on its own (its answer is `other`, below the
 * confidence threshold) takes the type of a neighbouring part when that is its own best reading
 * too and the neighbour is sure of it: a short second receipt after a receipt. Evidence is never
 * borrowed against the part's own reading, so a weak page between documents of another type
 * stays `other`, and a confident part is never changed.
 */
function withNeighbours(
  read: readonly { readonly ranking: Ranking; readonly output: ClassifyOutput }[],
  k: number,
): ClassifyOutput {
  const own = read[k] as (typeof read)[number];
  const best = own.ranking.best;
  if (!best || !isOtherType(own.output.type) || own.ranking.confidence <= 0) return own.output;
  const neighbour = [read[k - 1], read[k + 1]].find(
    (n) => n !== undefined && n.output.id === best.classification.id,
  );
  if (!neighbour) return own.output;
  return {
    id: best.classification.id,
    type: best.classification.type,
    confidence: own.ranking.confidence,
    insights: [
      {
        type: 'reasoning',
        content: `Read as ${best.classification.type} with confidence ${own.ranking.confidence.toFixed(2)}, below the threshold on its own pages; the part next to it reads as ${best.classification.type} with confidence ${neighbour.output.confidence.toFixed(2)}.`,
      },
    ],
  };
}

/**
 * Splits the pages of one file; `profiles` are the term profiles of the configuration's
 * classifications (built once for every file and part).
 */
function splitPages(
  pages: readonly DocumentPage[],
  config: SplitterConfig,
  profiles: readonly TermProfile[],
  fileId: string | undefined,
): ProposedSplit[] {
  const classifications = config.splitClassifications;
  const cues: PageCues[] = pages.map((page) => {
    const lines = page.lines.map((l) => l.text);
    const ranking = rank(profiles, termCounts(lines, 6, layoutTerms([page])));
    const best = ranking.best?.classification;
    const title = new Set(lines.slice(0, 10).flatMap((l) => tokens(solidWords(l))));
    const pageNumber = pageNumberOf(page);
    return {
      ...(pageNumber ? { pageNumber } : {}),
      identifiers: identifiersOf(page),
      dates: datesOf(page),
      ...balancesOf(page),
      classId: best?.id,
      confidence: ranking.confidence,
      scores: ranking.scores,
      bestScore: ranking.bestScore,
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
  let segmentDates = new Map(cues[0]?.dates ?? []);
  /** The segment's last page so far stated its closing balance. */
  let segmentClosed = cues[0]?.closes ?? false;
  let segmentClass = cues[0]?.classId;
  /** How sure the page that gave the segment its class was. */
  let segmentConfidence = cues[0]?.confidence ?? 0;
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
      for (const [key, value] of cue.dates) {
        const current = segmentDates.get(key);
        if (current !== undefined && current !== value) {
          start = `the ${key} changes from ${current} to ${value}`;
          break;
        }
      }
    }
    // A statement that closed on the page before is followed by another that opens here (the
    // same account's next month has the same number and the same bank).
    const samePeriod = [...cue.dates].some(([k, v]) => segmentDates.get(k) === v);
    if (!start && !continues && segmentClosed && cue.opens && !samePeriod)
      start = 'a balance closed on the page before and another opens here';
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
    // Another kind of document reads clearly as that kind. A page whose title does not name
    // its kind must also read much less as the kind of the document before: a statement's page
    // of card payments reads a little more like a receipt than like a statement, never much more.
    const asBefore = segmentClass === undefined ? 0 : (cue.scores.get(segmentClass) ?? 0);
    if (
      !start &&
      !continues &&
      cue.classId !== segmentClass &&
      cue.confidence >= 0.5 &&
      (cue.titled || asBefore < cue.bestScore * KIND_MARGIN)
    ) {
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
      segmentDates = new Map(cue.dates);
      segmentClosed = cue.closes;
      segmentClass = cue.classId;
      segmentConfidence = cue.confidence;
      segmentIssuer = cue.issuer;
    } else {
      for (const [k, v] of cue.identifiers) if (!segmentIds.has(k)) segmentIds.set(k, v);
      for (const [k, v] of cue.dates) if (!segmentDates.has(k)) segmentDates.set(k, v);
      segmentClosed = cue.closes;
      segmentIssuer ??= cue.issuer;
      // A segment whose pages so far say little of their kind (a blank leading page, a page of
      // figures) takes the kind of the first page that says more.
      if (
        segmentClass === undefined ||
        (segmentConfidence < 0.5 && cue.confidence > segmentConfidence)
      ) {
        segmentClass = cue.classId ?? segmentClass;
        segmentConfidence = cue.confidence;
      }
    }
  }
  const classifyConfig = {
    classifications,
    ...(config.splitRules === undefined ? {} : { classificationRules: config.splitRules }),
  };
  const segments = starts.map((s, k) => pages.slice(s, starts[k + 1] ?? pages.length));
  const read = segments.map((segment) => {
    const lines = segment.flatMap(pageLines);
    const ranking = rankLines(lines, profiles, layoutTerms(segment), openingLines(segment));
    return { ranking, output: classifyRanking(ranking, lines, classifyConfig) };
  });
  return starts.map((s, k) => {
    const e = (starts[k + 1] ?? pages.length) - 1;
    const segment = segments[k] as DocumentPage[];
    const output = withNeighbours(read, k);
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
  const profiles = buildTermProfiles(config.splitClassifications, config.splitRules);
  const splits: ProposedSplit[] = [];
  for (const [key, pages] of groups)
    splits.push(...splitPages(pages, config, profiles, key === '' ? undefined : key));
  return splits;
}
