/** Server paths that presigned URLs point at (served by `routes/public-routes.ts`). */
const seg = encodeURIComponent;

/** A file's bytes (`File.presignedUrl`). */
export const presignedFilePath = (workspaceId: string, fileId: string): string =>
  `/presigned/files/${seg(workspaceId)}/${seg(fileId)}`;

/** A parse run's output (`ParseRun.outputUrl`). */
export const presignedParseOutputPath = (workspaceId: string, runId: string): string =>
  `/presigned/parse_runs/${seg(workspaceId)}/${seg(runId)}/output`;

/** A webhook delivery's payload (the `data` URL of signed-URL deliveries). */
export const presignedWebhookPayloadPath = (workspaceId: string, deliveryId: string): string =>
  `/presigned/webhook_payloads/${seg(workspaceId)}/${seg(deliveryId)}`;
