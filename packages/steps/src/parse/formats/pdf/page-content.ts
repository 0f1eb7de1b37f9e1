import { inflateSync, constants as zlib } from 'node:zlib';
import type { PDFContext, PDFDocument, PDFNumber, PDFObject } from 'pdf-lib';
import type { ContentResources, ContentXObject } from './content-graphics.ts';
import type { Matrix } from './geometry.ts';
import { lazyObjects } from './lazy-objects.ts';

/** A page's decoded content and the resources its names refer to. */
export interface PageContent {
  readonly content: Uint8Array;
  readonly resources: ContentResources;
}

/** Raw page content streams of a document, by pdf.js page reference. */
export interface PageContentSource {
  /** `undefined` when the page cannot be read here (the caller falls back to pdf.js). */
  page(ref: { num: number; gen: number } | null): PageContent | undefined;
}

const MAX_INHERIT = 64;

/**
 * Opens a document a second time, with pdf-lib's object parser, to reach the raw content streams
 * pdf.js keeps in its worker half: objects are parsed on demand through the cross-reference data
 * ({@link lazyObjects}), or all of them by `PDFDocument.load` where that data is not readable so.
 * An object is only trusted when it is what pdf.js's reference says it is (a page, a stream).
 * `undefined` for an encrypted or unreadable document: its pages take pdf.js's operator list.
 */
export async function openPageContent(bytes: Uint8Array): Promise<PageContentSource | undefined> {
  const lib = await import('pdf-lib');
  let context: PDFContext;
  const lazy = lazyObjects(bytes, lib);
  if (lazy) {
    if (lazy.encrypted) return undefined;
    context = lazy.context;
  } else {
    // A cross-reference layout the lazy reader does not follow: pdf-lib parses the whole file.
    let doc: PDFDocument;
    try {
      doc = await lib.PDFDocument.load(bytes, {
        ignoreEncryption: true,
        updateMetadata: false,
        throwOnInvalidObject: false,
        parseSpeed: lib.ParseSpeeds.Fastest,
      });
    } catch {
      return undefined;
    }
    if (doc.isEncrypted) return undefined;
    context = doc.context;
  }
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFBool } = lib;
  const name = (value: string) => PDFName.of(value);
  const lookup = (value: PDFObject | undefined): PDFObject | undefined =>
    value instanceof PDFRef ? context.lookup(value) : value;

  /** A stream's decoded bytes; undefined for filters or predictors pdf-lib does not undo. */
  const decode = (stream: PDFObject | undefined): Uint8Array | undefined => {
    if (!(stream instanceof PDFRawStream)) return undefined;
    const params = lookup(stream.dict.get(name('DecodeParms')));
    if (params !== undefined && !(params instanceof PDFDict && params.keys().length === 0)) {
      return undefined;
    }
    if (lookup(stream.dict.get(name('Filter'))) === name('FlateDecode')) {
      try {
        // zlib in C++, several times faster than pdf-lib's inflate; tolerant of a missing end.
        return inflateSync(stream.contents, { finishFlush: zlib.Z_SYNC_FLUSH });
      } catch {
        // Corrupt data: pdf-lib's inflate recovers what it can, like pdf.js's.
      }
    }
    try {
      return lib.decodePDFRawStream(stream).decode();
    } catch {
      return undefined;
    }
  };

  const forms = new Map<PDFObject, ContentXObject | undefined>();
  const xobjectOf = (
    value: PDFObject | undefined,
    parent: ContentResources,
  ): ContentXObject | undefined => {
    const object = lookup(value);
    if (object === undefined) return { kind: 'other' };
    if (!(object instanceof PDFRawStream)) return undefined;
    const subtype = object.dict.get(name('Subtype'));
    if (subtype === name('Image')) {
      const dims = (long: string, short: string) => {
        const n = lookup(object.dict.get(name(long)) ?? object.dict.get(name(short)));
        return n instanceof PDFNumber ? n.asNumber() : n;
      };
      const mask = lookup(
        object.dict.get(name('ImageMask')) ?? object.dict.get(name('IM')),
      ) as unknown;
      return {
        kind: 'image',
        width: dims('Width', 'W'),
        height: dims('Height', 'H'),
        imageMask: mask instanceof PDFBool && mask.asBoolean(),
      };
    }
    if (subtype !== name('Form')) return subtype === undefined ? undefined : { kind: 'other' };
    if (forms.has(object)) return forms.get(object);
    forms.set(object, undefined);
    const content = decode(object);
    const own = lookup(object.dict.get(name('Resources')));
    const form: ContentXObject | undefined = content && {
      kind: 'form',
      matrix: matrixOf(lookup(object.dict.get(name('Matrix')))),
      content,
      // As pdf.js: a form without resources uses its parent's.
      resources: own instanceof PDFDict ? resourcesOf(own) : parent,
    };
    forms.set(object, form);
    return form;
  };

  const matrixOf = (value: PDFObject | undefined): Matrix | null => {
    if (!(value instanceof PDFArray) || value.size() !== 6) return null;
    const numbers = value.asArray().map((item) => lookup(item));
    if (!numbers.every((n) => n instanceof PDFNumber)) return null;
    return numbers.map((n) => (n as PDFNumber).asNumber()) as unknown as Matrix;
  };

  const resourcesOf = (dict: PDFObject | undefined): ContentResources => {
    const xobjects = dict instanceof PDFDict ? lookup(dict.get(name('XObject'))) : undefined;
    const self: ContentResources = {
      xobject(key) {
        if (!(xobjects instanceof PDFDict)) return { kind: 'other' };
        return xobjectOf(xobjects.get(name(key)), self);
      },
    };
    return self;
  };

  return {
    page(ref) {
      try {
        return pageOf(ref);
      } catch {
        // An object the lazy reader or pdf-lib could not parse: pdf.js reads this page.
        return undefined;
      }
    },
  };

  function pageOf(ref: { num: number; gen: number } | null): PageContent | undefined {
    if (!ref) return undefined;
    const page = context.lookup(PDFRef.of(ref.num, ref.gen));
    if (!(page instanceof PDFDict) || page.get(name('Type')) !== name('Page')) return undefined;
    const contents = lookup(page.get(name('Contents')));
    const streams = contents instanceof PDFArray ? contents.asArray().map(lookup) : [contents];
    const parts: Uint8Array[] = [];
    for (const stream of streams) {
      if (stream === undefined) continue;
      const part = decode(stream);
      if (!part) return undefined;
      parts.push(part);
    }
    // Inherited through the page tree, as pdf.js reads /Resources.
    let node: PDFObject | undefined = page;
    let resources: PDFObject | undefined;
    for (let k = 0; k < MAX_INHERIT && node instanceof PDFDict && !resources; k++) {
      resources = lookup(node.get(name('Resources')));
      node = lookup(node.get(name('Parent')));
    }
    return { content: join(parts), resources: resourcesOf(resources) };
  }
}

/** Content streams in sequence; a line break between them keeps tokens apart. */
function join(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 1, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
    out[at++] = 0x0a;
  }
  return out;
}
