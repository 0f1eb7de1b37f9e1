import { describe, expect, it } from 'vitest';
import { colorEnabled, createStyle } from '../../src/output/style.ts';

describe('colorEnabled', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it('colours terminals only', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
  });
  it('respects NO_COLOR (non-empty), TERM=dumb and FORCE_COLOR, NO_COLOR first', () => {
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '' })).toBe(false);
    expect(colorEnabled(tty, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });
  it('styles are identity when off', () => {
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});
