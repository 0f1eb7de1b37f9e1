/**
 * Resources of one workspace are invisible to every other, on every route. The probes are keyed
 * by the server's route table: a route added without a probe fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRoutes } from '../../src/routes/server-routes.ts';
import { REVIEWED_STEPS, startTestServer, type TestServer } from '../helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** What a route must answer to workspace B when given workspace A's ids. */
type Expectation = 'not-found' | 'excludes' | 'forbidden' | 'no-resources';
interface Probe {
  readonly expect: Expectation;
  readonly method?: string;
  readonly path?: string;
  readonly body?: unknown;
}

const extractConfig = {
  schema: { type: 'object', properties: { total: { type: ['number', 'null'] } } },
};
const classifyConfig = {
  classifications: [
    { id: 'a', type: 'a', description: 'a' },
    { id: 'other', type: 'other', description: 'other' },
  ],
};
const splitConfig = {
  splitClassifications: classifyConfig.classifications,
};

/** Workspace A's resources, made through the SDK. */
async function populateA() {
  const client = t.client(t.keys.a);
  const file = await client.files.upload(new File(['Total: 1.00 EUR'], 'a-only.txt'), {});
  const workflow = await client.workflows.create({
    name: 'A workflow',
    steps: REVIEWED_STEPS,
  });
  const version = await client.workflowVersions.create(workflow.id, {});
  const run = await client.workflowRuns.createAndPoll({
    workflow: { id: workflow.id },
    file: { id: file.id },
  });
  const batch = await client.workflowRuns.createBatch({
    workflow: { id: workflow.id },
    inputs: [{ file: { id: file.id } }],
  });
  const extractor = await client.extractors.create({
    name: 'A ex',
    config: extractConfig as never,
  });
  const extractorVersion = await client.extractorVersions.create(extractor.id, {
    releaseType: 'major',
  });
  const classifier = await client.classifiers.create({
    name: 'A cl',
    config: classifyConfig as never,
  });
  const classifierVersion = await client.classifierVersions.create(classifier.id, {
    releaseType: 'major',
  });
  const splitter = await client.splitters.create({ name: 'A spl', config: splitConfig as never });
  const splitterVersion = await client.splitterVersions.create(splitter.id, {
    releaseType: 'major',
  });
  const parseRun = await client.parse({ file: { id: file.id }, responseType: 'url' });
  const extractRun = await client.extractRuns.create({
    file: { id: file.id },
    config: extractConfig as never,
  });
  const classifyRun = await client.classifyRuns.create({
    file: { id: file.id },
    config: classifyConfig as never,
  });
  const splitRun = await client.splitRuns.create({
    file: { id: file.id },
    config: splitConfig as never,
  });
  const parseBatch = await client.parseRuns.createBatch({ inputs: [{ file: { id: file.id } }] });
  const extractBatch = await client.extractRuns.createBatch({
    extractor: { id: extractor.id },
    inputs: [{ file: { id: file.id } }],
  });
  const endpoint = await client.webhookEndpoints.create({
    url: 'http://127.0.0.1:9/never',
    name: 'A hook',
    enabledEvents: [],
    apiVersion: '2026-02-09',
  });
  const subscription = await client.webhookSubscriptions.create({
    webhookEndpointId: endpoint.id,
    resourceType: 'workflow',
    resourceId: workflow.id,
    enabledEvents: ['workflow_run.completed'],
  });
  const fileUrl = (await client.files.retrieve(file.id)).presignedUrl as string;
  return {
    file: file.id,
    workflow: workflow.id,
    version: version.id,
    run: run.id,
    batch: batch.batchId,
    extractor: extractor.id,
    extractorVersion: extractorVersion.id,
    classifier: classifier.id,
    classifierVersion: classifierVersion.id,
    splitter: splitter.id,
    splitterVersion: splitterVersion.id,
    parseRun: parseRun.id,
    extractRun: extractRun.id,
    classifyRun: classifyRun.id,
    splitRun: splitRun.id,
    parseBatch: parseBatch.id,
    extractBatch: extractBatch.id,
    endpoint: endpoint.id,
    subscription: subscription.id,
    fileUrl,
    outputUrl: parseRun.outputUrl as string,
  };
}

type A = Awaited<ReturnType<typeof populateA>>;

/** One probe per route of the table, keyed `METHOD /path`. */
function probes(a: A): Record<string, Probe> {
  const nf = (path: string, body?: unknown): Probe => ({ expect: 'not-found', path, body });
  const list = (path: string): Probe => ({ expect: 'excludes', path });
  const runKinds = [
    ['parse_runs', a.parseRun, 'parse'],
    ['extract_runs', a.extractRun, 'extract'],
    ['classify_runs', a.classifyRun, 'classify'],
    ['split_runs', a.splitRun, 'split'],
  ] as const;
  const processorKinds = [
    ['extractors', 'extractor', a.extractor, a.extractorVersion, extractConfig],
    ['classifiers', 'classifier', a.classifier, a.classifierVersion, classifyConfig],
    ['splitters', 'splitter', a.splitter, a.splitterVersion, splitConfig],
  ] as const;
  const out: Record<string, Probe> = {
    'GET /openapi.json': { expect: 'no-resources', path: '/openapi.json' },
    'GET /errors/{code}': { expect: 'no-resources', path: '/errors/NOT_FOUND' },
    'GET /presigned/files/{workspaceId}/{fileId}': {
      expect: 'forbidden',
      path:
        new URL(a.fileUrl).pathname.replace(t.workspaces.a.id, t.workspaces.b.id) +
        new URL(a.fileUrl).search,
    },
    'GET /presigned/parse_runs/{workspaceId}/{runId}/output': {
      expect: 'forbidden',
      path:
        new URL(a.outputUrl).pathname.replace(t.workspaces.a.id, t.workspaces.b.id) +
        new URL(a.outputUrl).search,
    },
    'GET /presigned/webhook_payloads/{workspaceId}/{deliveryId}': {
      expect: 'forbidden',
      path: `/presigned/webhook_payloads/${t.workspaces.b.id}/whd_x?expires=9999999999&signature=${'0'.repeat(64)}`,
    },
    'POST /files/upload': { expect: 'excludes', path: '/files/upload', body: 'multipart' },
    'GET /files': list('/files'),
    'GET /files/{id}': nf(`/files/${a.file}`),
    'DELETE /files/{id}': nf(`/files/${a.file}`),
    'GET /workflows': list('/workflows'),
    'POST /workflows': { expect: 'excludes', path: '/workflows', body: { name: 'B workflow' } },
    'GET /workflows/{id}': nf(`/workflows/${a.workflow}`),
    'POST /workflows/{id}': nf(`/workflows/${a.workflow}`, { name: 'stolen' }),
    'DELETE /workflows/{id}': nf(`/workflows/${a.workflow}`),
    'GET /workflows/{id}/versions': nf(`/workflows/${a.workflow}/versions`),
    'POST /workflows/{id}/versions': nf(`/workflows/${a.workflow}/versions`, {}),
    'GET /workflows/{id}/versions/{versionId}': nf(
      `/workflows/${a.workflow}/versions/${a.version}`,
    ),
    'GET /workflow_runs': list('/workflow_runs'),
    'POST /workflow_runs': nf('/workflow_runs', {
      workflow: { id: a.workflow },
      file: { id: a.file },
    }),
    'POST /workflow_runs/batch': nf('/workflow_runs/batch', {
      workflow: { id: a.workflow },
      inputs: [{ file: { id: a.file } }],
    }),
    'GET /workflow_runs/{id}': nf(`/workflow_runs/${a.run}`),
    'POST /workflow_runs/{id}': nf(`/workflow_runs/${a.run}`, { metadata: { x: 1 } }),
    'DELETE /workflow_runs/{id}': nf(`/workflow_runs/${a.run}`),
    'POST /workflow_runs/{id}/cancel': nf(`/workflow_runs/${a.run}/cancel`),
    'POST /workflow_runs/{id}/review': nf(`/workflow_runs/${a.run}/review`, {
      decision: 'approve',
      reviewer: 'mallory@example.com',
    }),
    'GET /batch_runs/{id}': nf(`/batch_runs/${a.parseBatch}`),
    'GET /batch_processor_runs/{id}': nf(`/batch_processor_runs/${a.extractBatch}`),
    'POST /processors/{id}/publish': nf(`/processors/${a.extractor}/publish`, {
      releaseType: 'major',
    }),
    'GET /webhook_endpoints': list('/webhook_endpoints'),
    'POST /webhook_endpoints': {
      expect: 'excludes',
      path: '/webhook_endpoints',
      body: { url: 'http://127.0.0.1:9/b', name: 'B', enabledEvents: [], apiVersion: '2026-02-09' },
    },
    'GET /webhook_endpoints/{id}': nf(`/webhook_endpoints/${a.endpoint}`),
    'POST /webhook_endpoints/{id}': nf(`/webhook_endpoints/${a.endpoint}`, { name: 'stolen' }),
    'DELETE /webhook_endpoints/{id}': nf(`/webhook_endpoints/${a.endpoint}`),
    'GET /webhook_subscriptions': list('/webhook_subscriptions'),
    'POST /webhook_subscriptions': nf('/webhook_subscriptions', {
      webhookEndpointId: a.endpoint,
      resourceType: 'workflow',
      resourceId: a.workflow,
      enabledEvents: ['workflow_run.completed'],
    }),
    'GET /webhook_subscriptions/{id}': nf(`/webhook_subscriptions/${a.subscription}`),
    'POST /webhook_subscriptions/{id}': nf(`/webhook_subscriptions/${a.subscription}`, {
      enabledEvents: [],
    }),
    'DELETE /webhook_subscriptions/{id}': nf(`/webhook_subscriptions/${a.subscription}`),
  };
  for (const [plural, id, sync] of runKinds) {
    const config =
      plural === 'parse_runs'
        ? undefined
        : plural === 'extract_runs'
          ? extractConfig
          : plural === 'classify_runs'
            ? classifyConfig
            : splitConfig;
    const body = { file: { id: a.file }, ...(config ? { config } : {}) };
    out[`GET /${plural}`] = list(`/${plural}`);
    out[`POST /${plural}`] = nf(`/${plural}`, body);
    out[`GET /${plural}/{id}`] = nf(`/${plural}/${id}`);
    out[`DELETE /${plural}/{id}`] = nf(`/${plural}/${id}`);
    out[`POST /${plural}/{id}/cancel`] = nf(`/${plural}/${id}/cancel`);
    out[`POST /${sync}`] = nf(`/${sync}`, body);
    out[`POST /${plural}/batch`] = nf(
      `/${plural}/batch`,
      plural === 'parse_runs'
        ? { inputs: [{ file: { id: a.file } }] }
        : {
            [plural === 'extract_runs'
              ? 'extractor'
              : plural === 'classify_runs'
                ? 'classifier'
                : 'splitter']: {
              id:
                plural === 'extract_runs'
                  ? a.extractor
                  : plural === 'classify_runs'
                    ? a.classifier
                    : a.splitter,
              version: '1.0',
            },
            inputs: [{ file: { text: 'b' } }],
          },
    );
  }
  for (const [plural, kind, id, versionId] of processorKinds) {
    const label = `${kind[0]?.toUpperCase()}${kind.slice(1)}`;
    out[`GET /${plural}`] = list(`/${plural}`);
    out[`POST /${plural}`] = nf(`/${plural}`, { name: 'clone', [`clone${label}Id`]: id });
    out[`GET /${plural}/{id}`] = nf(`/${plural}/${id}`);
    out[`POST /${plural}/{id}`] = nf(`/${plural}/${id}`, { name: 'stolen' });
    out[`GET /${plural}/{${kind}Id}/versions`] = nf(`/${plural}/${id}/versions`);
    out[`POST /${plural}/{${kind}Id}/versions`] = nf(`/${plural}/${id}/versions`, {
      releaseType: 'minor',
    });
    out[`GET /${plural}/{${kind}Id}/versions/{versionId}`] = nf(
      `/${plural}/${id}/versions/${versionId}`,
    );
  }
  return out;
}

describe('workspace isolation', () => {
  let a: A;
  let table: Record<string, Probe>;
  beforeAll(async () => {
    a = await populateA();
    table = probes(a);
  });

  it('has a probe for every route of the server', () => {
    const routes = serverRoutes.map((r) => `${r.method} ${r.path}`);
    expect(routes.filter((r) => !(r in table))).toEqual([]);
    expect(Object.keys(table).filter((k) => !routes.includes(k))).toEqual([]);
  });

  it("answers 404 to workspace B for every route given workspace A's ids, and lists none of them", async () => {
    const idsOfA = Object.entries(a)
      .filter(([k]) => !k.endsWith('Url'))
      .map(([, v]) => v);
    const failures: string[] = [];
    for (const route of serverRoutes) {
      const key = `${route.method} ${route.path}`;
      const probe = table[key] as Probe;
      let response: Response;
      if (probe.body === 'multipart') {
        const form = new FormData();
        form.append('file', new Blob(['b']), 'b.txt');
        response = await t.fetch(probe.path as string, {
          method: 'POST',
          body: form,
          key: t.keys.b,
        });
      } else {
        response = await t.fetch(probe.path as string, {
          method: route.method,
          key: t.keys.b,
          ...(probe.body === undefined
            ? {}
            : {
                body: JSON.stringify(probe.body),
                headers: { 'content-type': 'application/json' },
              }),
        });
      }
      const text = await response.text();
      // A 404 may repeat the id it was asked for; nothing else of A may appear anywhere.
      const asked = JSON.stringify(probe);
      const leaked = idsOfA.filter((id) => text.includes(id) && !asked.includes(id));
      const ok =
        probe.expect === 'not-found'
          ? response.status === 404 && JSON.parse(text).code === 'NOT_FOUND'
          : probe.expect === 'forbidden'
            ? response.status === 403
            : response.status === 200;
      if (!ok || leaked.length > 0) {
        failures.push(
          `${key}: ${response.status} ${text.slice(0, 200)}${leaked.length ? ` leaks ${leaked.join(', ')}` : ''}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("leaves workspace A's resources as they were", async () => {
    const client = t.client(t.keys.a);
    expect((await client.files.retrieve(a.file)).id).toBe(a.file);
    expect((await client.workflows.retrieve(a.workflow)).name).toBe('A workflow');
    expect((await client.workflowRuns.retrieve(a.run)).status).toBe('NEEDS_REVIEW');
    expect((await client.webhookEndpoints.retrieve(a.endpoint)).name).toBe('A hook');
    expect((await client.extractorVersions.list(a.extractor)).data).toHaveLength(1);
  });
});
