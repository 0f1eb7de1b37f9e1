// docs/observability.md as a user runs it from an empty project with plain `node`: an
// OpenTelemetry SDK registered by the host, a logger with pino's interface, a run that fails (its
// external validation points at this machine, which the URL policy refuses). Prints one JSON
// line: the spans the SDK got and the records the logger got.

import { createEngine } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
const records = [];
const logger = Object.fromEntries(
  ['debug', 'info', 'warn', 'error'].map((level) => [
    level,
    (fields, message) => records.push({ level, message, ...fields }),
  ]),
);

const engine = createEngine({ steps: builtinSteps(), logger });
await engine.start();
const wf = await engine.workflows.create({
  name: 'Observed',
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'check' }] },
    {
      name: 'check',
      type: 'EXTERNAL_DATA_VALIDATION',
      config: {
        requestOptions: { url: 'http://127.0.0.1:9/check', method: 'POST' },
        failureBehavior: 'EXIT',
      },
    },
  ],
});
await engine.workflows.deploy(wf.id);
const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'hello' } });
const done = await engine.workflowRuns.waitFor(run.id);
await engine.stop();
console.log(
  JSON.stringify({
    runId: done.id,
    status: done.status,
    spans: exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      spanId: span.spanContext().spanId,
      parentId: span.parentSpanContext?.spanId ?? null,
      error: span.status.code === 2,
      attributes: span.attributes,
    })),
    records: records.map(({ level, event, runId }) => ({ level, event, runId })),
  }),
);
