/**
 * Webhooks (issue 32): a subscription names event kinds, a URL and a secret; each event of those kinds is queued in
 * the database and POSTed to the URL as JSON, signed, in order, retried for a day. What a receiver checks is here.
 */

/** The kinds of events a subscription may name (`events`, joined by commas). */
export const WebhookEventKind = {
  opening: 'opening',
  denial: 'denial',
  alarm: 'alarm',
  deviceOnline: 'deviceOnline',
  deviceOffline: 'deviceOffline',
  emergencyStart: 'emergencyStart',
  emergencyEnd: 'emergencyEnd',
  visitorArrival: 'visitorArrival',
} as const;
export type WebhookEventKind = (typeof WebhookEventKind)[keyof typeof WebhookEventKind];
export const WEBHOOK_EVENT_KINDS = Object.values(WebhookEventKind) as readonly WebhookEventKind[];

/** The kind of the event "send a test event" queues to one subscription (whatever kinds it names). */
export const WEBHOOK_TEST_KIND = 'test';

/** Headers of every delivery. */
export const WebhookHeader = {
  /** unix seconds when this attempt was signed */
  timestamp: 'X-Isps-Timestamp',
  /** `v1=` and the hex HMAC-SHA256, keyed with the subscription's secret, of `<timestamp>.<body>` */
  signature: 'X-Isps-Signature',
  /** the delivery's id: the same on every attempt and on "send again", so a receiver can drop one it has */
  delivery: 'X-Isps-Delivery',
  /** the event's kind */
  event: 'X-Isps-Event',
} as const;

/** A receiver refuses a delivery whose timestamp is further than this from its own clock (a replay). */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The body of a delivery (JSON). */
export interface WebhookPayload {
  /** the event's id: equal in the deliveries of one event to several subscriptions */
  id: string;
  kind: WebhookEventKind | typeof WEBHOOK_TEST_KIND;
  /** when it happened, ISO 8601 in UTC */
  time: string;
  /** grows by one per event of the subscription: the order they are sent in */
  seq: number;
  tenantId: string | null;
  /** what happened; never a card number, template, password or key */
  data: Record<string, unknown>;
}

export const WebhookDeliveryStatus = {
  /** waiting for its turn or its next attempt */
  pending: 'pending',
  /** an attempt is under way (claimed by one server) */
  sending: 'sending',
  delivered: 'delivered',
  /** not delivered within the retry window; "send again" queues it anew */
  failed: 'failed',
} as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];

/** Routes beside the subscription CRUD (`/sys/webhook/*`). */
export const WebhookPath = {
  /** GET `?id=<subscription>&pageNo=&pageSize=&status=`: a page of its deliveries, newest first */
  deliveries: '/sys/webhook/deliveries',
  /** POST `{ id: <delivery> }`: queue a failed (or delivered) delivery again */
  resend: '/sys/webhook/resend',
  /** POST `{ id: <subscription> }`: queue a test event to it */
  test: '/sys/webhook/test',
} as const;

/** One delivery as the deliveries page lists it. */
export interface WebhookDeliveryRow {
  id: string;
  seq: number;
  eventKind: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptTime: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredTime: string | null;
  createTime: string | null;
}
