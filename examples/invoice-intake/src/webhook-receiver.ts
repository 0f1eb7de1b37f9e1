/**
 * A local webhook receiver, as a user's backend would run one: it verifies each request's
 * signature against the raw body before trusting it, answers 401 to forgeries, and hands
 * authentic events on.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EngineEvent, isWebhookVerificationError, verifyWebhook } from '@docflow/engine';

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/docflow-events`. */
  readonly url: string;
  /** Authentic events, in arrival order. */
  readonly events: EngineEvent[];
  /** Requests refused with 401, with the verification error code. */
  readonly rejected: string[];
  /** The signing secret; set it once the endpoint is created (it is shown only then). */
  secret: string;
  /** Resolves with the first authentic event of `eventType`. */
  waitFor(eventType: string, timeoutMs?: number): Promise<EngineEvent>;
  close(): Promise<void>;
}

async function rawBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const events: EngineEvent[] = [];
  const rejected: string[] = [];
  const waiters: { type: string; resolve: (e: EngineEvent) => void }[] = [];
  const receiver = { secret: '' };
  const server = createServer(async (request, response) => {
    const body = await rawBody(request);
    try {
      verifyWebhook(body, request.headers, receiver.secret);
    } catch (error) {
      const code = isWebhookVerificationError(error) ? error.code : 'UNKNOWN';
      rejected.push(code);
      response.writeHead(401).end(code);
      return;
    }
    const event = JSON.parse(body.toString('utf8')) as EngineEvent;
    // Deliveries are at least once: a receiver deduplicates by eventId.
    if (!events.some((e) => e.eventId === event.eventId)) {
      events.push(event);
      for (const w of waiters.filter((x) => x.type === event.eventType)) w.resolve(event);
    }
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/docflow-events`,
    events,
    rejected,
    waitFor(eventType: string, timeoutMs = 30_000) {
      const seen = events.find((e) => e.eventType === eventType);
      if (seen) return Promise.resolve(seen);
      return new Promise<EngineEvent>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${eventType} webhook within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          type: eventType,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  });
}
