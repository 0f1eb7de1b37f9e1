/** True for an OLE container holding an encrypted OOXML package (a password-protected DOCX/XLSX). */
export declare function isEncryptedOfficePackage(bytes: Uint8Array): boolean;
//# sourceMappingURL=zip-inspect.d.ts.map