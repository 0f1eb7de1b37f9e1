import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events/event-bus.ts';

const event = (eventType: string) => ({ eventId: `evt_${eventType}`, eventType, payload: {} });

describe('EventBus', () => {
  it('calls listeners of the type and of "*", until removed', () => {
    const listeners = new EventBus(() => {});
    const seen: string[] = [];
    const off = listeners.on('workflow.created', (e) => {
      seen.push(`typed ${e.eventType}`);
    });
    listeners.on('*', (e) => {
      seen.push(`any ${e.eventType}`);
    });
    expect(listeners.has('workflow.created')).toBe(true);
    listeners.emit(event('workflow.created'));
    listeners.emit(event('workflow.deleted'));
    off();
    listeners.emit(event('workflow.created'));
    expect(seen).toEqual([
      'typed workflow.created',
      'any workflow.created',
      'any workflow.deleted',
      'any workflow.created',
    ]);
  });

  it('reports throwing and rejecting listeners without stopping the others', async () => {
    const errors: string[] = [];
    const listeners = new EventBus((error) => errors.push((error as Error).message));
    let called = 0;
    listeners.on('x', () => {
      throw new Error('sync');
    });
    listeners.on('x', async () => {
      throw new Error('async');
    });
    listeners.on('x', () => {
      called++;
    });
    expect(() => listeners.emit(event('x'))).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(called).toBe(1);
    expect(errors.sort()).toEqual(['async', 'sync']);
  });
});
