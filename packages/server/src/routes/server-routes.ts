import { filesRoutes } from './files-routes.ts';
import { processorsRoutes } from './processors-routes.ts';
import { publicRoutes } from './public-routes.ts';
import type { AnyRoute } from './route.ts';
import { runsRoutes } from './runs-routes.ts';
import { webhooksRoutes } from './webhooks-routes.ts';
import { workflowRunsRoutes } from './workflow-runs-routes.ts';
import { workflowsRoutes } from './workflows-routes.ts';

/** Every route of the server: the table that registers them, documents them and tests them. */
export const serverRoutes: readonly AnyRoute[] = [
  ...publicRoutes,
  ...filesRoutes,
  ...workflowsRoutes,
  ...workflowRunsRoutes,
  ...runsRoutes,
  ...processorsRoutes,
  ...webhooksRoutes,
];
