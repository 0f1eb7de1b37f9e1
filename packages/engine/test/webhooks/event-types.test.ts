import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  GLOBAL_EVENT_TYPES,
  isEventType,
  VALID_SUBSCRIPTION_EVENTS,
} from '../../src/events/event-types.ts';

describe('event types', () => {
  it('has the 38 types of the interface, each once', () => {
    expect(EVENT_TYPES).toHaveLength(38);
    expect(new Set(EVENT_TYPES).size).toBe(38);
    expect(isEventType('workflow_run.step_run.processed')).toBe(true);
    expect(isEventType('workflow_run.started')).toBe(false);
  });

  it('makes every type but workflow_run.* global', () => {
    expect(GLOBAL_EVENT_TYPES).toHaveLength(32);
    expect(GLOBAL_EVENT_TYPES.some((t) => t.startsWith('workflow_run.'))).toBe(false);
  });

  it('lists valid subscription events per resource type as the interface does', () => {
    expect(VALID_SUBSCRIPTION_EVENTS).toEqual({
      extractor: [
        'extract_run.processed',
        'extract_run.failed',
        'batch_processor_run.processed',
        'batch_processor_run.failed',
      ],
      classifier: [
        'classify_run.processed',
        'classify_run.failed',
        'batch_processor_run.processed',
        'batch_processor_run.failed',
      ],
      splitter: [
        'split_run.processed',
        'split_run.failed',
        'batch_processor_run.processed',
        'batch_processor_run.failed',
      ],
      workflow: [
        'workflow_run.completed',
        'workflow_run.failed',
        'workflow_run.needs_review',
        'workflow_run.rejected',
        'workflow_run.cancelled',
        'workflow_run.step_run.processed',
      ],
    });
  });
});
