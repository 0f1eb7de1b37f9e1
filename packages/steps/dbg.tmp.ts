import { parseDate } from './src/processors/value-coercion.ts';
for (const t of ['Mar 1 2024', 'Mar 1, 2024', '1 Mar 2024']) console.log(t, '=>', parseDate(t));
