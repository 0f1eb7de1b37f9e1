/** A JSON value as stored. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON object as stored. */
export type JsonObject = { readonly [key: string]: JsonValue };
