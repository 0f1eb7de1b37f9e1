import { describe, expect, it } from 'vitest';
import { parseOperand } from '../../src/definition/conditional-operand.ts';

describe('parseOperand', () => {
  it('reads text without {{ }} as a literal', () => {
    expect(parseOperand('10000')).toEqual({
      ok: true,
      operand: { kind: 'literal', text: '10000' },
    });
    expect(parseOperand('')).toEqual({ ok: true, operand: { kind: 'literal', text: '' } });
  });

  it('reads a lone {{ formula }} (spaces around allowed) as a typed formula', () => {
    const result = parseOperand('  {{ extract.total }} ');
    expect(result.ok && result.operand.kind).toBe('formula');
    expect(result.ok && result.operand.kind === 'formula' && result.operand.source).toBe(
      ' extract.total ',
    );
  });

  it('reads text with formula parts as a template', () => {
    const result = parseOperand('INV-{{extract.number}}/{{metadata.year}}');
    expect(result.ok).toBe(true);
    if (!result.ok || result.operand.kind !== 'template') throw new Error('expected a template');
    expect(result.operand.parts.map((p) => (p.kind === 'text' ? p.text : `{${p.source}}`))).toEqual(
      ['INV-', '{extract.number}', '/', '{metadata.year}'],
    );
  });

  it('reports an unclosed {{, an empty {{ }} and a formula error with offsets', () => {
    expect(parseOperand('a {{ b')).toEqual({
      ok: false,
      errors: [{ message: '"{{" has no matching "}}"', offset: 2 }],
    });
    expect(parseOperand('{{ }}')).toEqual({
      ok: false,
      errors: [{ message: '"{{ }}" holds no formula', offset: 0 }],
    });
    const bad = parseOperand('x {{ SUM(1 }}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]?.offset).toBeGreaterThanOrEqual(4);
  });
});
