export { webhookPlugin, WEBHOOKS_CHANGED } from './plugin.ts';
export { webhookRoutes } from './routes.ts';
export { webhookSignature } from './delivery.ts';
export { webhookApiTag } from './api-description.ts';
