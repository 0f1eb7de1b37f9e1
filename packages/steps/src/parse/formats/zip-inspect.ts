/** Sum of the declared uncompressed sizes of a ZIP's entries, from its central directory. */
export function zipUncompressedSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const min = Math.max(0, bytes.length - 22 - 65535);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (view.getUint32(i, true) !== 0x06054b50) continue;
    const count = view.getUint16(i + 10, true);
    let offset = view.getUint32(i + 16, true);
    let total = 0;
    for (let n = 0; n < count; n++) {
      if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50)
        return undefined;
      const size = view.getUint32(offset + 24, true);
      // 0xFFFFFFFF means ZIP64: the real size is larger than 4 GiB.
      total += size === 0xffffffff ? Number.POSITIVE_INFINITY : size;
      offset +=
        46 +
        view.getUint16(offset + 28, true) +
        view.getUint16(offset + 30, true) +
        view.getUint16(offset + 32, true);
    }
    return total;
  }
  return undefined;
}

function utf16(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
}

const ENCRYPTED_PACKAGE = utf16('EncryptedPackage');

/** True for an OLE container holding an encrypted OOXML package (a password-protected DOCX/XLSX). */
export function isEncryptedOfficePackage(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0xd0 || bytes[1] !== 0xcf || bytes[2] !== 0x11 || bytes[3] !== 0xe0)
    return false;
  const needle = ENCRYPTED_PACKAGE;
  // Directory entries sit near the start of the small containers Office writes for encrypted
  // packages; a bounded search keeps this fast on large files.
  const end = Math.min(bytes.length, 4 * 1024 * 1024) - needle.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (bytes[i + j] !== needle[j]) continue outer;
    }
    return true;
  }
  return false;
}
