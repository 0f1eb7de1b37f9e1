import { readFileSync } from 'node:fs';
import { buildDocumentView, parseDocument } from '@docflow/steps';
const f = process.argv[2]!;
const r = await parseDocument(readFileSync(f), { fileName: f, config: {} });
if (!r.ok) throw new Error(r.failureMessage);
const v = buildDocumentView([{ output: r.output }]);
for (const p of v.pages) { console.log(`=== page ${p.number}`); for (const l of p.lines.slice(0, 14)) console.log('  ' + l.text); console.log('  fields: ' + p.fields.map(f => `${f.label}=${f.value}`).join(' | ')); }
