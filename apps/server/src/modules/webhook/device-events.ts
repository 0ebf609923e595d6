import { DeviceEventKind, WebhookEventKind, type DeviceEvent } from '@isps/contract';
import type { WebhookEvent } from '../../platform/webhook-outbox.ts';

const clip = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? value.slice(0, max) : null);
const integer = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/**
 * The webhook events among a device's events: openings, denials and alarms, each with the fields a receiver needs,
 * picked one by one (a device's data is never passed on whole: no card number, template or key leaves this way).
 */
export function webhookEventsOf(device: { id: string; sn: string }, events: readonly DeviceEvent[]): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  for (const event of events) {
    const base = { deviceId: device.id, deviceSn: device.sn, eventSeq: event.seq };
    if (event.kind === DeviceEventKind.opening || event.kind === DeviceEventKind.denial) {
      const data = event.data;
      out.push({
        kind: event.kind === DeviceEventKind.opening ? WebhookEventKind.opening : WebhookEventKind.denial,
        time: event.time,
        data: {
          ...base,
          door: integer(data.door),
          method: clip(data.method, 16),
          peopleId: clip(data.peopleId, 36),
          ...(event.kind === DeviceEventKind.denial ? { reason: clip(data.reason, 32) } : {}),
        },
      });
    } else if (event.kind === DeviceEventKind.alarm) {
      const data = event.data as { code?: unknown; level?: unknown; door?: unknown };
      out.push({ kind: WebhookEventKind.alarm, time: event.time, data: { ...base, code: clip(data.code, 64), level: clip(data.level, 4), door: integer(data.door) } });
    }
  }
  return out;
}
