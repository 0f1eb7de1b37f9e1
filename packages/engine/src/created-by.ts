/** Who created a resource (the interface's CreatedBy): a user in a studio, or an API key; null when unknown. */
export interface CreatedBy {
  readonly type: 'user' | 'api_key';
  readonly email?: string;
  readonly name?: string;
}
