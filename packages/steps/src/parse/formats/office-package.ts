import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { type ZipEntry, zipEntries } from './zip-measure.ts';

/**
 * An Office Open XML package (XLSX, DOCX): its ZIP entries by name, a part read whole or
 * streamed through htmlparser2 in XML mode, and a part's relationships.
 */

export type Attributes = Record<string, string>;

export interface XmlHandler {
  open(name: string, attributes: Attributes): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** Element names without their namespace prefix (`x:c` is `c`). */
function local(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function xmlParser(handler: XmlHandler): Parser {
  const { text, close } = handler;
  return new Parser(
    {
      onopentag: (name, attributes) => handler.open(local(name), attributes),
      ...(text ? { ontext: (chunk: string) => text.call(handler, chunk) } : {}),
      ...(close ? { onclosetag: (name: string) => close.call(handler, local(name)) } : {}),
    },
    { xmlMode: true, decodeEntities: true },
  );
}

export class OfficePackage {
  private readonly entries = new Map<string, ZipEntry>();
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    for (const entry of zipEntries(bytes)) this.entries.set(entry.name.toLowerCase(), entry);
  }

  entry(path: string): ZipEntry | undefined {
    return this.entries.get(path.replace(/^\//, '').toLowerCase());
  }

  /** The entry's stored bytes, after its local header. */
  private data(entry: ZipEntry): Uint8Array {
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const at = entry.localOffset;
    if (at + 30 > this.bytes.length || view.getUint32(at, true) !== 0x04034b50) {
      throw new Error(`the local header of ${entry.name} is damaged`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    return this.bytes.subarray(start, start + entry.compressedSize);
  }

  /** A small part, whole. */
  read(entry: ZipEntry, handler: XmlHandler): void {
    const data = this.data(entry);
    const xml = entry.method === 0 ? data : inflateRawSync(data);
    const parser = xmlParser(handler);
    parser.write(new TextDecoder().decode(xml));
    parser.end();
  }

  /** A large part, as it inflates: `after` runs after each chunk (rows are handed over there). */
  async *stream(entry: ZipEntry, handler: XmlHandler): AsyncGenerator<void> {
    const parser = xmlParser(handler);
    const decoder = new TextDecoder();
    const data = this.data(entry);
    if (entry.method === 0) {
      parser.write(decoder.decode(data));
      yield;
    } else {
      // The inflated sheet is never held whole: 1 MiB at a time goes through the tokeniser.
      const inflate = createInflateRaw({ chunkSize: 1024 * 1024 });
      inflate.end(data);
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        parser.write(decoder.decode(chunk, { stream: true }));
        yield;
      }
    }
    parser.end();
    yield;
  }
}

/** `Id → target path` of a part's relationships, targets resolved against the part's folder. */
export function relationships(
  book: OfficePackage,
  part: string,
): Map<string, { readonly target: string; readonly type: string }> {
  const slash = part.lastIndexOf('/');
  const folder = part.slice(0, slash + 1);
  const rels = book.entry(`${folder}_rels/${part.slice(slash + 1)}.rels`);
  const out = new Map<string, { target: string; type: string }>();
  if (!rels) return out;
  book.read(rels, {
    open(name, a) {
      if (name !== 'Relationship' || !a.Id || !a.Target) return;
      const target = a.Target.startsWith('/') ? a.Target.slice(1) : resolve(folder, a.Target);
      out.set(a.Id, { target, type: a.Type ?? '' });
    },
  });
  return out;
}

function resolve(folder: string, target: string): string {
  const parts = folder.split('/').filter(Boolean);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}
