import type { DevicePresenceNotice, RealtimeMessage } from '@isps/contract';

/** How many device names a folded notice spells out before "and N more". */
export const PRESENCE_NAMES_SHOWN = 3;

/** What the console shows for device presence: at most one notice of devices offline and one of devices back. */
export interface PresenceView {
  /** devices offline now (named first, counted all); null when none is: the notice leaves by itself */
  offline: { count: number; names: string[] } | null;
  /** devices that came back since the last such notice closed; null when this message brought none back */
  online: { count: number; names: string[] } | null;
}

/** The devices a presence message is about, from its data (ids and names), else its single msgId / msgTxt. */
function devicesOf(message: RealtimeMessage): Map<string, string> {
  const data = message.data as Partial<DevicePresenceNotice> | undefined;
  const devices = new Map<string, string>();
  const named = new Map((data?.devices ?? []).map((d) => [d.id, d.name || d.sn]));
  for (const id of data?.ids ?? []) devices.set(id, named.get(id) ?? '');
  for (const [id, name] of named) devices.set(id, name);
  if (devices.size === 0 && (message.msgId || message.msgTxt)) devices.set(message.msgId ?? message.msgTxt ?? '', message.msgTxt ?? message.msgId ?? '');
  return devices;
}

/**
 * Device presence notices folded into one (issue 26 item 12): a burst of disconnects is one notice with a count
 * instead of a pile over the header, and it leaves by itself once those devices are online again.
 */
export class DevicePresenceNotices {
  private readonly offline = new Map<string, string>();
  private readonly back = new Map<string, string>();

  apply(message: RealtimeMessage, connected: boolean): PresenceView {
    const devices = devicesOf(message);
    if (connected) {
      for (const [id, name] of devices) {
        this.offline.delete(id);
        this.back.set(id, name);
      }
    } else {
      for (const [id, name] of devices) {
        this.offline.set(id, name);
        this.back.delete(id);
      }
    }
    return { offline: summary(this.offline), online: connected && devices.size > 0 ? summary(this.back) : null };
  }

  /** the notice of devices back was closed (or timed out): the next one counts afresh */
  backSeen(): void {
    this.back.clear();
  }
}

function summary(devices: Map<string, string>): { count: number; names: string[] } | null {
  if (devices.size === 0) return null;
  return { count: devices.size, names: [...devices.values()].filter((n) => n !== '').slice(0, PRESENCE_NAMES_SHOWN) };
}
