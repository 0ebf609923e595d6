import { WEBHOOK_EVENT_KINDS, WEBHOOK_SIGNATURE_TOLERANCE_SECONDS, WebhookHeader } from '@isps/contract';

/** What the API description tells of webhooks beside their routes: the delivery a receiver gets and how to check it. */
export const webhookApiTag = {
  name: 'webhook',
  description: [
    'Webhook subscriptions of the caller’s tenant (`/sys/webhook/*`) and their deliveries.',
    '',
    'Each event of a subscribed kind is queued in the database and sent as `POST <url>` with a JSON body:',
    '`{ "id": "<event id>", "kind": "<kind>", "time": "<ISO 8601, UTC>", "seq": <n>, "tenantId": "…", "data": { … } }`.',
    `Kinds: ${WEBHOOK_EVENT_KINDS.map((k) => `\`${k}\``).join(', ')} (and \`test\`, sent by \`/sys/webhook/test\`).`,
    'Data never carries a card number, palm template, password or device key.',
    '',
    'Headers:',
    `- \`${WebhookHeader.timestamp}\`: unix seconds when the attempt was signed;`,
    `- \`${WebhookHeader.signature}\`: \`v1=\` + hex HMAC-SHA256, keyed with the subscription’s secret, of \`<timestamp>.<raw body>\`;`,
    `- \`${WebhookHeader.delivery}\`: the delivery’s id, the same on every attempt and on “send again” (drop one you have);`,
    `- \`${WebhookHeader.event}\`: the event’s kind.`,
    '',
    `A receiver recomputes the signature over the raw body, compares it in constant time and refuses a timestamp more than ${WEBHOOK_SIGNATURE_TOLERANCE_SECONDS} s from its clock (a replay).`,
    'Any 2xx answer is success. A subscription’s deliveries are sent one at a time in `seq` order; a failed attempt (no answer within 10 s, or not 2xx) is',
    'retried after 5 s, 30 s, 2 min, 10 min, 30 min, then hourly, for 24 h; then the delivery is marked failed and the next one goes. Redirects are never followed.',
    'URLs are http(s) only; addresses of the console’s own machine (loopback, unspecified, link-local) are refused unless a system administrator allowed them for the subscription, when it is saved and again at each attempt.',
  ].join('\n'),
};
