import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, Response as UndiciResponse, fetch as undiciFetch } from 'undici';
import { EngineError, EngineErrorCode, isEngineError } from '../errors.ts';
import { addressRefusal, checkUrl, type UrlPolicy } from './url-policy.ts';

/** DNS resolution as `dns.lookup` does it with `{ all: true }` (injectable for tests). */
export type ResolveHost = (hostname: string, family: number) => Promise<readonly LookupAddress[]>;

/** Options of {@link createPolicyFetch}. */
export interface PolicyFetchOptions {
  readonly policy: UrlPolicy;
  /**
   * The longest response body read, in bytes: a longer one fails the read with
   * `RESPONSE_TOO_LARGE` and the connection is dropped (a `Content-Length` above it fails before
   * any byte is read).
   */
  readonly maxResponseBytes: number;
  /**
   * The HTTP client underneath, for tests or a custom agent. Default: undici's `fetch` over an
   * agent whose connections resolve the host themselves and check the address they connect to,
   * so that a name cannot resolve to an allowed address when checked and another when used
   * (DNS rebinding). A custom fetch gets the same URL, redirect and size checks, and the host's
   * addresses checked just before the request.
   */
  readonly fetch?: typeof fetch | undefined;
  /** DNS resolution; default `dns.lookup`. */
  readonly resolve?: ResolveHost | undefined;
}

/** `fetch` under a URL policy; see {@link createPolicyFetch}. */
export type PolicyFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function defaultResolve(hostname: string, family: number): Promise<readonly LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });
}

function refused(url: string, policy: UrlPolicy, reason: string): EngineError {
  return new EngineError(
    EngineErrorCode.URL_REFUSED,
    `${url} is refused by the ${policy.purpose} URL policy: ${reason}`,
    { details: { url, purpose: policy.purpose, reason } },
  );
}

function tooLarge(url: string, limit: number, seen: string): EngineError {
  return new EngineError(
    EngineErrorCode.RESPONSE_TOO_LARGE,
    `the response of ${url} is larger than ${limit.toLocaleString('en-US')} bytes (${seen}); the connection was dropped`,
    { details: { url, limit } },
  );
}

/** The addresses of `hostname` that `policy` allows; refuses (throws) if none is. */
async function allowedAddresses(
  url: string,
  hostname: string,
  family: number,
  policy: UrlPolicy,
  resolve: ResolveHost,
): Promise<LookupAddress[]> {
  const addresses = await resolve(hostname, family);
  const allowed = addresses.filter(
    (a) => addressRefusal(policy, hostname, a.address) === undefined,
  );
  if (allowed.length === 0) {
    const first = addresses[0];
    const reason =
      first === undefined
        ? `${hostname} has no address`
        : `${hostname} resolves to ${addressRefusal(policy, hostname, first.address)}`;
    throw refused(url, policy, reason);
  }
  return allowed;
}

/** A `lookup` for `net.connect` that hands over only addresses the policy allows. */
function checkedLookup(policy: UrlPolicy, resolve: ResolveHost): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const family = typeof options.family === 'number' ? options.family : 0;
    allowedAddresses(`//${hostname}`, hostname, family, policy, resolve).then(
      (addresses) => {
        if (options.all === true) callback(null, addresses);
        else {
          const first = addresses[0] as LookupAddress;
          callback(null, first.address, first.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

/** The response with a body that fails past `limit` bytes, aborting the request (dropping the connection). */
function limited(response: Response, url: string, limit: number, abort: () => void): Response {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    abort();
    throw tooLarge(url, limit, `Content-Length ${declared.toLocaleString('en-US')}`);
  }
  const source = response.body;
  const init = {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers] as [string, string][],
  };
  if (source === null || NULL_BODY.has(response.status)) {
    return new UndiciResponse(null, init) as unknown as Response;
  }
  const reader = source.getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      seen += value.byteLength;
      if (seen > limit) {
        abort();
        reader.cancel().catch(() => {});
        controller.error(tooLarge(url, limit, `more than ${seen.toLocaleString('en-US')} read`));
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new UndiciResponse(body as never, init) as unknown as Response;
}

function unwrap(error: unknown): unknown {
  // undici reports a refused lookup as `TypeError: fetch failed` with the refusal as its cause.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return isEngineError(cause) ? cause : error;
}

/**
 * Makes a `fetch` that obeys a URL policy: the URL is checked before anything is sent (scheme,
 * credentials, deny and allow lists, IP-literal hosts); host names are resolved by the
 * connection itself and only allowed addresses are connected to; redirects are followed by hand
 * (`init.redirect: 'manual'` returns them instead), at most `policy.maxRedirects`, each hop
 * checked again, credentials dropped when the origin changes, POST turned into GET on 301 to 303;
 * the response body is read only up to `maxResponseBytes`. A refused URL rejects with
 * `EngineError` `URL_REFUSED`, an oversized body with `RESPONSE_TOO_LARGE`.
 *
 * @example
 * const get = createPolicyFetch({ policy: urlPolicy('workflow'), maxResponseBytes: 256 * 1024 });
 * const response = await get('https://validation.example.com/check', { method: 'POST', body });
 */
export function createPolicyFetch(options: PolicyFetchOptions): PolicyFetch {
  const { policy, maxResponseBytes } = options;
  const resolve = options.resolve ?? defaultResolve;
  const custom = options.fetch;
  let agent: Agent | undefined;
  const send = async (url: URL, init: RequestInit): Promise<Response> => {
    if (custom !== undefined) {
      // No hook into a custom client's connections: check the addresses just before.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      await allowedAddresses(url.href, host, 0, policy, resolve);
      return custom(url, init);
    }
    agent ??= new Agent({ connect: { lookup: checkedLookup(policy, resolve) } });
    // The global fetch types (undici-types 6) and undici 7's differ only in details.
    return (await undiciFetch(url, { ...init, dispatcher: agent } as never)) as unknown as Response;
  };

  return async (input, init = {}) => {
    const first = checkUrl(input, policy);
    if (!first.ok) throw refused(String(input), policy, first.reason);
    const controller = new AbortController();
    const signal = init.signal
      ? AbortSignal.any([init.signal, controller.signal])
      : controller.signal;
    const abort = () => controller.abort();
    let url = first.url;
    let method = (init.method ?? 'GET').toUpperCase();
    let body: RequestInit['body'] = init.body;
    const headers = new Headers(init.headers);
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        const request: RequestInit = { ...init, method, headers, signal, redirect: 'manual' };
        if (body === undefined || body === null) delete request.body;
        else request.body = body;
        response = await send(url, request);
      } catch (error) {
        throw unwrap(error);
      }
      const location = response.headers.get('location');
      if (init.redirect === 'manual' || !REDIRECTS.has(response.status) || location === null) {
        return limited(response, url.href, maxResponseBytes, abort);
      }
      await response.body?.cancel().catch(() => {});
      if (init.redirect === 'error') throw refused(url.href, policy, `redirected to ${location}`);
      if (hop >= policy.maxRedirects) {
        throw refused(url.href, policy, `more than ${policy.maxRedirects} redirects`);
      }
      const next = checkUrl(new URL(location, url), policy);
      if (!next.ok)
        throw refused(
          new URL(location, url).href,
          policy,
          `${next.reason} (a redirect from ${url.href})`,
        );
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = null;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (next.url.origin !== url.origin)
        for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      url = next.url;
    }
  };
}
