export type Role = 'issuer' | 'recipient' | 'signer' | 'identifier' | 'currency' | 'start' | 'end';
/** The roles of a property from its name (and title), with its description as a tie-breaker. */
export declare function rolesOf(name: string, description?: string): Set<Role>;
/**
 * An identifier as written, without the words a layout ran into it ("PO-8806 Order" →
 * "PO-8806", "3795 Statement" → "3795"): the leading words that carry a digit, with short
 * capital codes between them ("GB29 NWBK 6016"); undefined when no digit is there at all.
 */
export declare function cleanIdentifier(text: string): string | undefined;
//# sourceMappingURL=field-roles.d.ts.map