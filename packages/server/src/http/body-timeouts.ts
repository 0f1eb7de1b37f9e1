import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.ts';

function expectsBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
}

/**
 * Cuts off a request whose body stops arriving: once the socket has been silent for `ms` while
 * the body is still being read, the request gets 400 REQUEST_TIMEOUT and its connection is
 * closed. The timer counts silence, not total time, so a large upload on a slow link goes on as
 * long as bytes keep coming; it stops once the body is read (a handler's wait for its run is not
 * the client's silence).
 */
export class BodyTimeouts {
  readonly #ms: number;
  readonly #armed = new WeakMap<FastifyRequest, () => void>();

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Arms the timer of a request that has a body. */
  start(request: FastifyRequest, reply: FastifyReply): void {
    const raw = request.raw;
    if (!expectsBody(raw)) return;
    const onTimeout = () => {
      this.complete(request);
      if (reply.sent) {
        raw.socket?.destroy();
        return;
      }
      reply.raw.once('finish', () => raw.socket?.destroy());
      reply.header('connection', 'close');
      reply.send(
        new ApiError(
          'REQUEST_TIMEOUT',
          `The request body stopped arriving: nothing for ${this.#ms} ms. Nothing was stored.`,
        ),
      );
    };
    raw.setTimeout(this.#ms, onTimeout);
    this.#armed.set(request, () => {
      raw.removeListener('timeout', onTimeout);
      raw.socket?.setTimeout(0);
    });
  }

  /** The body has been read: stop counting. */
  complete(request: FastifyRequest): void {
    const disarm = this.#armed.get(request);
    if (!disarm) return;
    this.#armed.delete(request);
    disarm();
  }
}
