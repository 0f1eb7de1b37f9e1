import { RUN_SELECT } from './sqlite-statements.ts';

/**
 * The SQL of a keyset page: equality (or `instr`) conditions, then the cursor on `seq`, ordered
 * by `seq`, one row past the page. Every condition set it is given has an index ending in `seq`.
 */
export function keysetSelect(
  table: 'documents' | 'runs' | 'deliveries',
  conditions: readonly string[],
  order: 'asc' | 'desc',
  hasCursor: boolean,
): string {
  const all = hasCursor ? [...conditions, order === 'asc' ? 'seq > ?' : 'seq < ?'] : conditions;
  const where = all.length > 0 ? ` WHERE ${all.join(' AND ')}` : '';
  const select = table === 'runs' ? RUN_SELECT : `SELECT * FROM ${table}`;
  return `${select}${where} ORDER BY seq ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
}
