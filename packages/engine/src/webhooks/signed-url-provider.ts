/**
 * Signed-URL delivery (the interface's "Delivery format"): instead of the event inline, the request's
 * payload is `{ data: <url> }`, a URL from which the receiver downloads the event for one hour.
 */
import type { EngineEvent } from '../events/event-types.ts';

/** How long a signed payload URL stays valid: one hour (the interface's "Limits"). */
export const SIGNED_URL_TTL_MS = 3_600_000;

/** What a {@link SignedUrlProvider} is told besides the event. */
export interface SignedUrlContext {
  readonly deliveryId: string;
  readonly endpointId: string;
  /** The URL must stop working after this instant. */
  readonly expiresAt: Date;
}

/**
 * Makes a URL from which the event's `payload` (the run or resource object, as JSON) can be
 * downloaded until `expiresAt`; the receiver already has `eventId` and `eventType` from the
 * request. Called on every attempt, so a manual retry gets a new URL.
 */
export type SignedUrlProvider = (
  event: EngineEvent,
  context: SignedUrlContext,
) => string | Promise<string>;
