import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  GLOBAL_EVENT_TYPES,
  SUBSCRIPTION_RESOURCE_TYPES,
  VALID_SUBSCRIPTION_EVENTS,
} from '../../src/events/event-types.ts';
import { routeEvent } from '../../src/webhooks/plan-deliveries.ts';

const endpointIds = ['wh_a', 'wh_b', 'wh_c', 'wh_d'];
const resourceIds = ['r1', 'r2'];

const targets = fc
  .record({
    endpoints: fc.uniqueArray(
      fc.record({
        id: fc.constantFrom(...endpointIds),
        enabledEvents: fc.subarray([...GLOBAL_EVENT_TYPES]),
      }),
      { selector: (e) => e.id },
    ),
    subscriptions: fc.array(
      fc
        .record({
          webhookEndpointId: fc.constantFrom(...endpointIds),
          resourceType: fc.constantFrom(...SUBSCRIPTION_RESOURCE_TYPES),
          resourceId: fc.constantFrom(...resourceIds),
        })
        .chain((s) =>
          fc
            .subarray([...VALID_SUBSCRIPTION_EVENTS[s.resourceType]])
            .map((enabledEvents) => ({ ...s, id: `whes_${s.webhookEndpointId}`, enabledEvents })),
        ),
      { maxLength: 6 },
    ),
  })
  .map((t) => ({
    ...t,
    // One subscription per endpoint and resource, as the service guarantees.
    subscriptions: t.subscriptions.filter(
      (s, i, all) =>
        all.findIndex(
          (o) =>
            o.webhookEndpointId === s.webhookEndpointId &&
            o.resourceType === s.resourceType &&
            o.resourceId === s.resourceId,
        ) === i,
    ),
  }));

const resource = fc.option(
  fc.record({
    type: fc.constantFrom(...SUBSCRIPTION_RESOURCE_TYPES),
    id: fc.constantFrom(...resourceIds),
  }),
  { nil: undefined },
);

describe('routeEvent (property)', () => {
  it('equals the interface routing computed the long way', () => {
    fc.assert(
      fc.property(targets, fc.constantFrom(...EVENT_TYPES), resource, (t, eventType, res) => {
        const got = routeEvent(eventType, t, res);
        expect(new Set(got).size).toBe(got.length);
        const existing = new Set(t.endpoints.map((e) => e.id));
        const expected = new Set<string>();
        if (!eventType.startsWith('workflow_run.')) {
          for (const e of t.endpoints) if (e.enabledEvents.includes(eventType)) expected.add(e.id);
        }
        for (const s of t.subscriptions) {
          const matches =
            res !== undefined &&
            s.resourceType === res.type &&
            s.resourceId === res.id &&
            (s.enabledEvents as readonly string[]).includes(eventType);
          if (matches && existing.has(s.webhookEndpointId)) expected.add(s.webhookEndpointId);
        }
        expect(new Set(got)).toEqual(expected);
        if (eventType.startsWith('workflow_run.')) {
          for (const id of got) {
            expect(
              t.subscriptions.some(
                (s) => s.webhookEndpointId === id && s.resourceType === 'workflow',
              ),
            ).toBe(true);
          }
        }
      }),
    );
  });
});
