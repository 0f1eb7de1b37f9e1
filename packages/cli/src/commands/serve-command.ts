/** `docflow serve`: the HTTP interface on a port, until SIGTERM or SIGINT. */
import type { CliContext } from '../cli-context.ts';
import { CliError } from '../cli-error.ts';
import type { ModelProviderSettings } from '../provider-options.ts';
import { chooseServerStorage, type ServerStorageOptions } from '../server-storage-choice.ts';

/** Options of `serve`. */
export interface ServeOptions extends ServerStorageOptions {
  readonly port: number;
  readonly host: string;
  readonly headerPrefix?: string;
  readonly publicUrl?: string;
  readonly maxUploadMb?: number;
  readonly rateLimit?: number;
  readonly quiet?: boolean;
  /**
   * Let runs' document URLs, webhooks and EXTERNAL_DATA_VALIDATION reach this machine (a file
   * server or a receiver in development).
   */
  readonly allowLoopback?: boolean;
  /** Let them reach private networks (10/8, 172.16/12, 192.168/16, …). */
  readonly allowPrivate?: boolean;
  /** The model provider of EXTRACT, CLASSIFY and SPLIT in every workspace; offline when absent. */
  readonly provider?: ModelProviderSettings | undefined;
}

/**
 * Serves until a signal: on SIGTERM or SIGINT it stops accepting connections, lets requests in
 * flight finish, stops every workspace's engine (their unfinished work stays in the database for
 * the next start) and exits 0.
 */
export async function serveCommand(
  context: CliContext,
  options: ServeOptions,
  signals: { once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown } = process,
): Promise<number> {
  const [{ createServer }, { builtinSteps, closeOcrPool, modelProvider }] = await Promise.all([
    import('@docflow/server'),
    import('@docflow/steps'),
  ]);
  const { storage, description } = await chooseServerStorage(context, options);
  const urlPolicy = {
    ...(options.allowLoopback ? { allowLoopback: true } : {}),
    ...(options.allowPrivate ? { allowPrivate: true } : {}),
  };
  let server: Awaited<ReturnType<typeof createServer>>;
  try {
    server = await createServer({
      ...storage,
      urlPolicy,
      // Document URLs come from API clients: only the operator's flags open them up, as above.
      ...(Object.keys(urlPolicy).length > 0 ? { documentUrlPolicy: urlPolicy } : {}),
      steps: builtinSteps({
        processors: {
          urlPolicy,
          ...(options.provider ? { provider: modelProvider(options.provider) } : {}),
        },
      }),
      ...(options.headerPrefix === undefined ? {} : { headerWord: options.headerPrefix }),
      ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      limits: {
        ...(options.maxUploadMb === undefined
          ? {}
          : { uploadBytes: options.maxUploadMb * 1024 * 1024 }),
        ...(options.rateLimit === undefined
          ? {}
          : {
              rateLimit:
                options.rateLimit === 0 ? false : { max: options.rateLimit, windowMs: 60_000 },
            }),
      },
      // Request logs (pino JSON lines, with requestId) go to stderr; stdout says where it listens.
      logger: options.quiet ? false : { level: 'info', stream: context.stderr },
    });
  } catch (error) {
    if (error instanceof TypeError && /header word/.test(error.message)) {
      throw new CliError(`--header-prefix: ${error.message}`, 2);
    }
    throw error;
  }
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    signals.once('SIGTERM', stop);
    signals.once('SIGINT', stop);
  });
  let origin: string;
  try {
    origin = await server.listen({ port: options.port, host: options.host });
  } catch (error) {
    await server.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new CliError(`cannot listen on ${options.host}:${options.port}: ${String(code)}`);
    }
    throw error;
  }
  context.print(`docflow serving ${origin}`);
  context.warn(`storage: ${description}`);
  if (!options.allowLoopback) {
    context.warn(
      'document URLs and webhooks to this machine are refused: --allow-loopback lets a local server in',
    );
  }
  await stopped;
  context.warn('stopping: finishing requests in flight');
  await server.close();
  await closeOcrPool();
  return 0;
}
