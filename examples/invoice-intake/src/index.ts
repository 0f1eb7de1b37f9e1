/** The intake's building blocks, for the demo (`examples/demo`) and for your own code to copy. */
export { intakeWorkflow } from './intake-workflow.ts';
export { makePacket, SAMPLE_INVOICES, type SampleInvoice } from './make-packet.ts';
export { type Correction, type IntakeResult, runInvoiceIntake } from './run-invoice-intake.ts';
export {
  type ExtractOutput,
  onSameFile,
  type PartSummary,
  resultOf,
  summarizeParts,
} from './summarize-parts.ts';
export { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
