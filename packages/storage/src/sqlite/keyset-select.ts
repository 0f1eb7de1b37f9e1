import { RUN_SELECT } from './sqlite-statements.ts';

/**
 * A run's update time as readers see it: the `at` of its last patch when commits stored only a
 * patch since the row was written (see `runFromRow`), else the row's own.
 */
const RUN_UPDATED_AT = `coalesce((SELECT e.at FROM run_events e
  WHERE e.run_id = runs.id AND e.last_seq > base_event_seq AND e.revision > runs.revision
  ORDER BY e.last_seq DESC LIMIT 1), runs.updated_at)`;

/**
 * The SQL of a keyset page: equality (or `instr`) conditions, then the cursor, ordered by the
 * key, one row past the page. In creation order the key is `seq`, and every condition set it is
 * given has an index ending in `seq`. By update time the key is `(updated_at, seq)` with no
 * index: the filtered rows are sorted (a run's update time is not in its row, see above).
 */
export function keysetSelect(
  table: 'documents' | 'runs' | 'deliveries',
  conditions: readonly string[],
  order: 'asc' | 'desc',
  hasCursor: boolean,
  sortBy: 'createdAt' | 'updatedAt' = 'createdAt',
): string {
  const byUpdate = sortBy === 'updatedAt';
  const after = order === 'asc' ? '>' : '<';
  const cursor = byUpdate ? `(sort_at, seq) ${after} (?, ?)` : `seq ${after} ?`;
  const all = hasCursor ? [...conditions, cursor] : conditions;
  const where = all.length > 0 ? ` WHERE ${all.join(' AND ')}` : '';
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  if (!byUpdate) {
    const select = table === 'runs' ? RUN_SELECT : `SELECT * FROM ${table}`;
    return `${select}${where} ORDER BY seq ${dir} LIMIT ?`;
  }
  const inner =
    table === 'runs'
      ? RUN_SELECT.replace('SELECT runs.*,', `SELECT runs.*, ${RUN_UPDATED_AT} AS sort_at,`)
      : `SELECT *, updated_at AS sort_at FROM ${table}`;
  return `SELECT * FROM (${inner})${where} ORDER BY sort_at ${dir}, seq ${dir} LIMIT ?`;
}
