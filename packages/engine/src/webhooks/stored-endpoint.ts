import type { StoredDocument } from '@docflow/storage';

/** How an endpoint receives event bodies: inline JSON, or a signed URL to download them. */
export type WebhookDeliveryFormat = 'json' | 'signed_url';

/** The endpoint's delivery configuration as the dispatcher reads it from storage. */
export interface StoredWebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly apiVersion: string;
  readonly signingSecret: string;
  readonly deliveryFormat: WebhookDeliveryFormat;
  readonly signedUrlThresholdBytes: number | null;
}

/** Reads an endpoint's delivery configuration, secret included (for the dispatcher). */
export function toStoredWebhookEndpoint(doc: StoredDocument): StoredWebhookEndpoint {
  const d = doc.data;
  return {
    id: doc.id,
    url: String(d.url),
    apiVersion: String(d.apiVersion),
    signingSecret: String(d.signingSecret),
    deliveryFormat: d.deliveryFormat === 'signed_url' ? 'signed_url' : 'json',
    signedUrlThresholdBytes:
      typeof d.signedUrlThresholdBytes === 'number' ? d.signedUrlThresholdBytes : null,
  };
}
