import { describe, expect, it } from 'vitest';
import { appendPath, pointerToPath } from '../../src/validation/ajv-issues.ts';

describe('pointerToPath', () => {
  it('turns JSON pointers into JS-like paths', () => {
    expect(pointerToPath('/steps/3/next/0/classificationId')).toBe(
      'steps[3].next[0].classificationId',
    );
    expect(pointerToPath('')).toBe('');
    expect(pointerToPath('/a~1b/c~0d/x y', 'steps[1].config')).toBe(
      'steps[1].config["a/b"]["c~d"]["x y"]',
    );
    expect(pointerToPath('/headers/x-api-key', 'r')).toBe('r.headers["x-api-key"]');
  });

  it('appends indices and names', () => {
    expect(appendPath('', 'steps')).toBe('steps');
    expect(appendPath('steps', 2)).toBe('steps[2]');
    expect(appendPath('steps[2]', '01')).toBe('steps[2]["01"]');
  });
});
