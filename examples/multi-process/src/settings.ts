/** What every process of the example reads from its environment. */
export interface Settings {
  /** `postgres://…` of the database all processes share. */
  readonly url: string;
  /** The schema of docflow's tables (default `docflow`). */
  readonly schema: string;
  /** How long a step's lease lasts: a killed worker's steps resume elsewhere after it. */
  readonly leaseMs: number;
  /**
   * How long a worker waits before it parses a document (default 0): long enough, and a step is
   * still running when you kill its worker, to watch another worker take it over.
   */
  readonly parseDelayMs: number;
}

export function settings(env: NodeJS.ProcessEnv = process.env): Settings {
  const url = env.DOCFLOW_POSTGRES_URL;
  if (url === undefined || url === '') throw new Error('DOCFLOW_POSTGRES_URL is not set');
  return {
    url,
    schema: env.DOCFLOW_POSTGRES_SCHEMA ?? 'docflow',
    leaseMs: Number(env.DOCFLOW_LEASE_MS ?? 10_000),
    parseDelayMs: Number(env.DOCFLOW_PARSE_DELAY_MS ?? 0),
  };
}
