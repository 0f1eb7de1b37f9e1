function utf16(text) {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++)
        out[i * 2] = text.charCodeAt(i);
    return out;
}
const ENCRYPTED_PACKAGE = utf16('EncryptedPackage');
/** True for an OLE container holding an encrypted OOXML package (a password-protected DOCX/XLSX). */
export function isEncryptedOfficePackage(bytes) {
    if (bytes[0] !== 0xd0 || bytes[1] !== 0xcf || bytes[2] !== 0x11 || bytes[3] !== 0xe0)
        return false;
    const needle = ENCRYPTED_PACKAGE;
    // Directory entries sit near the start of the small containers Office writes for encrypted
    // packages; a bounded search keeps this fast on large files.
    const end = Math.min(bytes.length, 4 * 1024 * 1024) - needle.length;
    outer: for (let i = 0; i <= end; i++) {
        for (let j = 0; j < needle.length; j++) {
            if (bytes[i + j] !== needle[j])
                continue outer;
        }
        return true;
    }
    return false;
}
//# sourceMappingURL=zip-inspect.js.map