/**
 * The HTTP layer: a thin mapping of routes onto the engine's resource methods, so the request
 * and response bodies are the interface's shapes. Errors become the interface's error body.
 */

import type { Engine } from '@docflow/engine';
import {
  type EngineEvent,
  isEngineError,
  isWebhookVerificationError,
  type ReviewInput,
  type RunStatus,
  verifyWebhook,
} from '@docflow/engine';
import express, { type NextFunction, type Request, type Response } from 'express';

/** What the app needs besides the engine. */
export interface AppOptions {
  /** The signing secret of this backend's own webhook endpoint. */
  readonly signingSecret: () => string;
  /** Called with every authentic event the backend receives. */
  readonly onEvent: (event: EngineEvent) => void;
  /** Subscribes the backend's endpoint to a new workflow's runs. */
  readonly subscribe: (workflowId: string) => Promise<void>;
}

const STATUS_BY_CODE: Record<string, number> = {
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  INVALID_STATE: 409,
  CONFLICT: 409,
  TIMEOUT: 504,
  NOT_STARTED: 503,
};

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/** Builds the express app over a started engine. */
export function createApp(engine: Engine, options: AppOptions): express.Express {
  const app = express();
  const json = express.json({ limit: '1mb' });

  // Uploads are the raw bytes; the name comes in the query (no multipart parser needed).
  app.post(
    '/files',
    express.raw({ type: () => true, limit: '50mb' }),
    async (req: Request, res: Response) => {
      const name = typeof req.query.name === 'string' ? req.query.name : 'upload';
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.status(201).json(await engine.files.upload({ name, data }));
    },
  );

  // Creates a workflow, deploys it and subscribes this backend's endpoint to its runs.
  app.post('/workflows', json, async (req: Request, res: Response) => {
    const workflow = await engine.workflows.create(req.body);
    await engine.workflows.deploy(workflow.id);
    await options.subscribe(workflow.id);
    res.status(201).json(await engine.workflows.get(workflow.id));
  });

  app.post('/workflow_runs', json, async (req: Request, res: Response) => {
    res.status(201).json(await engine.workflowRuns.create(req.body));
  });

  app.get('/workflow_runs', async (req: Request, res: Response) => {
    const status =
      typeof req.query.status === 'string' ? (req.query.status as RunStatus) : undefined;
    res.json(await engine.workflowRuns.list(status ? { status } : {}));
  });

  app.get('/workflow_runs/:id', async (req: Request, res: Response) => {
    res.json(await engine.workflowRuns.get(param(req, 'id')));
  });

  app.post('/workflow_runs/:id/review', json, async (req: Request, res: Response) => {
    res.json(await engine.workflowRuns.review(param(req, 'id'), req.body as ReviewInput));
  });

  app.post('/workflow_runs/:id/cancel', async (req: Request, res: Response) => {
    res.json(await engine.workflowRuns.cancel(param(req, 'id')));
  });

  // docflow's webhooks come back here: verify the raw bytes before parsing anything.
  app.post(
    '/webhooks/docflow',
    express.raw({ type: 'application/json' }),
    (req: Request, res: Response) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        verifyWebhook(body, req.headers, options.signingSecret());
      } catch (error) {
        if (isWebhookVerificationError(error)) {
          res.status(401).json({ code: error.code, message: error.message, retryable: false });
          return;
        }
        throw error;
      }
      options.onEvent(JSON.parse(body.toString('utf8')) as EngineEvent);
      res.sendStatus(200);
    },
  );

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (isEngineError(error)) {
      res.status(STATUS_BY_CODE[error.code] ?? 500).json({
        code: error.code,
        message: error.message,
        retryable: error.retryable,
        ...(error.details.issues ? { issues: error.details.issues } : {}),
      });
      return;
    }
    if (error instanceof SyntaxError) {
      res.status(400).json({ code: 'INVALID_JSON', message: error.message, retryable: false });
      return;
    }
    console.error(error);
    res.status(500).json({ code: 'INTERNAL_ERROR', message: 'internal error', retryable: true });
  });
  return app;
}
