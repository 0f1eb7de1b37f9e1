/**
 * The evaluation corpus's ground truth is what its documents print: a field the truth gives is
 * on the page. Checked on the layouts the generator's invoice and order families build (the
 * documents LibreOffice, Chromium and the others then print), over many draws.
 */
import { describe, expect, it } from 'vitest';
import { invoiceFacts, orderFacts } from '../bench/src/documents/corpus/content.ts';
import { random } from '../bench/src/documents/corpus/random.ts';
import { context, FAMILIES, LATER_FAMILIES } from '../bench/src/documents/corpus/templates.ts';

/** Every string a layout holds, joined. */
function printed(layout: unknown): string {
  if (typeof layout === 'string') return layout;
  if (Array.isArray(layout)) return layout.map(printed).join('\n');
  if (layout && typeof layout === 'object') return Object.values(layout).map(printed).join('\n');
  return '';
}

describe('evaluation corpus truth', () => {
  const families = [...FAMILIES, ...LATER_FAMILIES].filter(
    (f) => f.set === 'development' && (f.type === 'invoice' || f.type === 'purchase_order'),
  );
  it.each(families.map((f) => [f.name, f] as const))('%s prints its PO number', (_, family) => {
    for (let seed = 1; seed <= 40; seed++) {
      const facts =
        family.type === 'invoice' ? invoiceFacts(random(seed)) : orderFacts(random(seed));
      const po = 'po' in facts ? facts.po : facts.number;
      const layout = family.build(
        facts as never,
        context(random(seed * 7), 'development', facts.locale),
      );
      expect(printed(layout), `seed ${seed}`).toContain(po);
    }
  });
});
