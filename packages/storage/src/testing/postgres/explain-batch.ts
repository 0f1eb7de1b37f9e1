/**
 * The plan of the adapter's batch statement for given commits, as its prepared statement runs it
 * (the generic plan): for the plan tests and the step profile. Runs in the caller's transaction:
 * begin it as the adapter does (`BEGIN_COMMIT`, which sets the generic plan and the planner
 * settings) and roll it back.
 */
import type pg from 'pg';
import { type BatchPart, batchQuery } from '../../postgres/postgres-commit.ts';
import { arrayLiteral, postgresStatements } from '../../postgres/postgres-statements.ts';

/** The lines of `EXPLAIN (<options>) EXECUTE` of the batch statement of `parts` in `schema`. */
export async function explainBatch(
  client: pg.Client,
  schema: string,
  parts: readonly BatchPart[],
  options: string,
): Promise<string[]> {
  const statements = postgresStatements(`"${schema}"`);
  await client.query(`PREPARE explained_batch AS ${statements.batch}`);
  // EXPLAIN EXECUTE takes no bound parameters: the values go in as literals.
  const values = (batchQuery(parts, statements).values ?? []).map((v) =>
    client.escapeLiteral(Array.isArray(v) ? arrayLiteral(v) : String(v)),
  );
  const { rows } = await client.query(
    `EXPLAIN (${options}) EXECUTE explained_batch(${values.join(', ')})`,
  );
  await client.query('DEALLOCATE explained_batch');
  return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
}
