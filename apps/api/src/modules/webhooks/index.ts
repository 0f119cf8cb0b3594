// The webhooks module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
// The outbox: what the ledger and the services write in a change's transaction (decision 0038).
export { isEventWanted, recordEvent, type OutboxEvent } from './outbox';
export type { Resolver } from './webhook-targets';
export { startWebhookWorker } from './webhook-worker';
export { default as webhooksRoutes } from './webhooks.routes';
export { webhookEventSchemaName, webhooksDocument } from './openapi-webhooks';
