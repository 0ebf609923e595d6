import * as z from 'zod';
import { MAX_DEVICE_CABINETS } from './storage.ts';

/**
 * The device protocol over MQTT (DESIGN section 7, docs/device-protocol.md). Devices publish on
 * `{root}/{sn}/up/{kind}` and read `{root}/{sn}/down/{kind}`; every payload is a JSON object with a message `id`.
 */
export const DEVICE_TOPIC_ROOT = 'isps';

/** Serial number (or MAC) of a device: its MQTT user name and the second level of its topics. No MQTT wildcards. */
export const DEVICE_SN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

export const DeviceUpKind = {
  hello: 'hello',
  heartbeat: 'heartbeat',
  presence: 'presence',
  event: 'event',
  ack: 'ack',
  enroll: 'enroll',
} as const;
export type DeviceUpKind = (typeof DeviceUpKind)[keyof typeof DeviceUpKind];

export const DeviceDownKind = { command: 'command', receipt: 'receipt' } as const;
export type DeviceDownKind = (typeof DeviceDownKind)[keyof typeof DeviceDownKind];

export function deviceUpTopic(sn: string, kind: DeviceUpKind, root = DEVICE_TOPIC_ROOT): string {
  return `${root}/${sn}/up/${kind}`;
}

export function deviceDownTopic(sn: string, kind: DeviceDownKind, root = DEVICE_TOPIC_ROOT): string {
  return `${root}/${sn}/down/${kind}`;
}

/** The server's subscription to every device's messages (without the `$share/{group}/` of several servers). */
export function deviceUpFilter(root = DEVICE_TOPIC_ROOT): string {
  return `${root}/+/up/#`;
}

/** `{root}/{sn}/up/{kind}` split, or null when the topic is not a device's up topic. */
export function parseDeviceUpTopic(topic: string, root = DEVICE_TOPIC_ROOT): { sn: string; kind: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== root || parts[2] !== 'up') return null;
  const [, sn, , kind] = parts as [string, string, string, string];
  return DEVICE_SN_PATTERN.test(sn) && kind !== '' ? { sn, kind } : null;
}

const messageId = z.string().min(1).max(64);
/** the device's own clock, milliseconds since the epoch */
const deviceTime = z.number().int().min(0).max(8_640_000_000_000_000);

export const DEVICE_SYSTEMS = ['abDoor', 'access', 'storage', 'quake', 'ks'] as const;
/** What a device is, as its hello says: a controller, a camera or a vein device (the `device_kind` dictionary's 1, 2, 3). */
export const DEVICE_KINDS = ['controller', 'camera', 'vein'] as const;
export type DeviceKindName = (typeof DEVICE_KINDS)[number];
/** The `device_kind` dictionary value of a kind a hello names. */
export const deviceKindValue = (kind: DeviceKindName): string => String(DEVICE_KINDS.indexOf(kind) + 1);
/** The most doors one controller reports (its door numbers are 1 to this). */
export const MAX_DEVICE_DOORS = 64;

/** First message of every MQTT session; `sessionId` names the session so an older session's last will is ignored. */
export const deviceHello = z.object({
  id: messageId,
  sessionId: z.string().min(1).max(64),
  time: deviceTime,
  firmware: z.string().max(64).optional(),
  model: z.string().max(100).optional(),
  system: z.enum(DEVICE_SYSTEMS).optional(),
  ip: z.string().max(64).optional(),
  mac: z.string().max(64).optional(),
  gateway: z.string().max(64).optional(),
  subnetMask: z.string().max(64).optional(),
  /** what the device is; the console takes it from here, nobody types it */
  kind: z.enum(DEVICE_KINDS).optional(),
  /** a door controller's doors, numbered 1 to `doors`: each becomes a door of the console (named after the device) once */
  doors: z.number().int().min(0).max(MAX_DEVICE_DOORS).optional(),
  /** a cabinet device's cabinets, numbered 1 to `cabinets`: each becomes a cabinet of the console once */
  cabinets: z.number().int().min(0).max(MAX_DEVICE_CABINETS).optional(),
  /** a cabinet terminal's app version */
  appVersion: z.string().max(64).optional(),
});
export type DeviceHello = z.infer<typeof deviceHello>;

export const deviceHeartbeat = z.object({ id: messageId, time: deviceTime });
export type DeviceHeartbeat = z.infer<typeof deviceHeartbeat>;

/**
 * Presence going down: sent by the device before a clean disconnect (`reason: disconnect`) and set as its MQTT last
 * will (`reason: will`), which the broker publishes when the connection is lost.
 */
export const devicePresence = z.object({
  id: messageId,
  sessionId: z.string().min(1).max(64),
  online: z.literal(false),
  reason: z.enum(['disconnect', 'will']),
});
export type DevicePresence = z.infer<typeof devicePresence>;

export const DeviceEventKind = {
  doorState: 'doorState',
  opening: 'opening',
  /** a person refused at a door: `{ door, method, peopleId?, reason: 'unknown' | 'outsideTime' }` (never the card number) */
  denial: 'denial',
  punch: 'punch',
  alarm: 'alarm',
  patrolCheckIn: 'patrolCheckIn',
  quakeReading: 'quakeReading',
  /** progress of a softUpdate command: `{ command, progress }` (0–100) */
  softUpdate: 'softUpdate',
  /** an error the device ran into: `{ type, code, content, ip? }` (device run log) */
  runError: 'runError',
  /** a cabinet door opened: `{ cabinet, peopleId?, cardNo?, method? }` (an opening record; the card is kept masked) */
  cabinetOpen: 'cabinetOpen',
  /** a cabinet door closed: `{ cabinet }` (ends the cabinet's open record) */
  cabinetClose: 'cabinetClose',
  /** a cabinet was emptied on the device: `{ cabinet }` (it may now go to someone else) */
  cabinetCleared: 'cabinetCleared',
  /** a key left its slot of a key cabinet: `{ slot, peopleId?, cardNo?, method? }` (a take of the key's history) */
  keyTaken: 'keyTaken',
  /** a key came back to its slot: `{ slot }` (ends the key's open take) */
  keyReturned: 'keyReturned',
} as const;
export type DeviceEventKind = (typeof DeviceEventKind)[keyof typeof DeviceEventKind];

/** One event: `seq` grows by one per event of the device (kept across restarts), so a repeated delivery is dropped. */
export const deviceEvent = z.object({
  id: messageId,
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  time: deviceTime,
  kind: z.enum(Object.values(DeviceEventKind) as [DeviceEventKind, ...DeviceEventKind[]]),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type DeviceEvent = z.infer<typeof deviceEvent>;

/** The `event` topic carries one event or a batch of up to 500 (a device catching up after being offline). */
export const DEVICE_EVENT_BATCH_MAX = 500;
export const deviceEventMessage = z.union([deviceEvent, z.object({ id: messageId, events: z.array(deviceEvent).min(1).max(DEVICE_EVENT_BATCH_MAX) })]);
export type DeviceEventMessage = z.infer<typeof deviceEventMessage>;

/**
 * Server → device, after the events named are stored (committed): `seqs` are inclusive ranges of sequence numbers.
 * A device keeps every event it sent until a receipt names it, and sends those it keeps again after reconnecting (and
 * while none comes), so an event the broker acknowledged but the server had not yet stored (a crash, a failing
 * database) is not lost; the server stores each (device, seq) once, so sending again is harmless.
 */
export const deviceReceipt = z.object({
  id: messageId,
  seqs: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])).max(10_000),
});
export type DeviceReceipt = z.infer<typeof deviceReceipt>;

/** Sequence numbers as sorted inclusive ranges: 1, 2, 3, 7 → [1, 3], [7, 7]. */
export function seqRanges(seqs: Iterable<number>): Array<[number, number]> {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  for (const seq of sorted) {
    const last = ranges.at(-1);
    if (last && seq === last[1] + 1) last[1] = seq;
    else ranges.push([seq, seq]);
  }
  return ranges;
}

/** Server → device. Delivered until acknowledged; a device runs a command id once and acknowledges it every time. */
export const deviceCommand = z.object({
  id: messageId,
  kind: z.string().min(1).max(64),
  payload: z.unknown(),
  /** server time of this delivery, milliseconds since the epoch */
  time: z.number().int(),
  /** 1 on the first delivery */
  attempt: z.number().int().min(1),
  /** server time the command was queued, milliseconds since the epoch */
  createdAt: z.number().int().optional(),
  /** time to live in milliseconds from `createdAt`: once it has passed, by the device's clock, the device drops the command (absent: no expiry) */
  ttl: z.number().int().min(1).optional(),
});
export type DeviceCommand = z.infer<typeof deviceCommand>;

/** The `result.reason` of a device's `ok: false` acknowledgement of a command it dropped as expired. */
export const COMMAND_EXPIRED_REASON = 'expired';

/** Device → server: the command `id` was run (or had already been run) with this outcome. */
export const deviceAck = z.object({
  id: messageId,
  ok: z.boolean(),
  result: z.unknown().optional(),
});
export type DeviceAck = z.infer<typeof deviceAck>;

export const DeviceCommandKind = {
  openDoor: 'openDoor',
  syncPeople: 'syncPeople',
  setParams: 'setParams',
  reboot: 'reboot',
  /** emergency: `{ door, open: true }` holds a door normally open, `{ door, open: false }` returns it to normal */
  holdOpen: 'holdOpen',
  /** download a software package over HTTP and install it, reporting progress (`SoftUpdateCommandPayload`) */
  softUpdate: 'softUpdate',
  /** `RotateKeyPayload`: sign in with this key from now on; the old one stops working once this is acknowledged */
  rotateKey: 'rotateKey',
} as const;

/** The payload of a `rotateKey` command: the device's new key (the command's stored copy is cleared once acknowledged). */
export interface RotateKeyPayload {
  key: string;
}

/** How long a rotated-out device key keeps working when the device does not acknowledge its new key. */
export const DEVICE_KEY_GRACE_MS = 5 * 60_000;

/** How long a remote door open may wait for its device: a door opens now or not at all. */
export const DOOR_OPEN_TTL_MS = 10_000;

/** `expired`: its time to live passed before it was delivered (or the device dropped it as late); it never runs. */
export const DeviceCommandStatus = { pending: 'pending', sent: 'sent', acked: 'acked', failed: 'failed', expired: 'expired' } as const;
export type DeviceCommandStatus = (typeof DeviceCommandStatus)[keyof typeof DeviceCommandStatus];

/** Data of a `deviceConnect` / `deviceDisConnect` real-time message: the devices that changed in one window. */
export interface DevicePresenceNotice {
  count: number;
  /** up to DEVICE_PRESENCE_LISTED devices; `count` tells how many changed */
  devices: Array<{ id: string; sn: string; name: string }>;
  /** ids of up to DEVICE_PRESENCE_IDS devices that changed, so an open device list updates those rows in place */
  ids: string[];
}
export const DEVICE_PRESENCE_LISTED = 20;
export const DEVICE_PRESENCE_IDS = 1000;

/** Device codes (SPEC sections 3 and 4): activation code to be audited, then agree or disagree. */
export const DeviceCodePath = {
  list: '/sysDeviceCode/list',
  queryById: '/sysDeviceCode/queryById',
  add: '/sysDeviceCode/add',
  /** PUT `{ id, auditStatus: 1 | 2 }`; agreeing answers the device key once (`result.deviceKey`) */
  audit: '/sysDeviceCode/audit',
  delete: '/sysDeviceCode/delete',
  /** DELETE `?ids=a,b`: answers `{ count }` of the caller's codes deleted */
  deleteBatch: '/sysDeviceCode/deleteBatch',
} as const;

export const DeviceAuditStatus = { pending: 0, agree: 1, disagree: 2 } as const;

export const DevicePerm = {
  codeList: 'device:deviceCode:list',
  codeAdd: 'device:deviceCode:add',
  codeEdit: 'device:deviceCode:edit',
  codeDelete: 'device:deviceCode:delete',
  codeAudit: 'device:deviceCode:audit',
} as const;

export const deviceCodeAddBody = z.object({
  sn: z.string().trim().regex(DEVICE_SN_PATTERN, { error: 'validation.invalid' }),
  authorizationCode: z.string().trim().max(64).optional(),
  remark: z.string().max(500).optional(),
});

export const deviceCodeAuditBody = z.object({
  id: z.string().min(1).max(36),
  auditStatus: z.union([z.literal(DeviceAuditStatus.agree), z.literal(DeviceAuditStatus.disagree), z.enum(['1', '2']).transform(Number)]),
});

/** A device code row on the wire; the device key is never listed, only answered once by the audit. */
export interface DeviceCodeRow {
  id: string;
  sn: string;
  activationCode: string;
  authorizationCode: string | null;
  auditStatus: number;
  auditBy: string | null;
  auditTime: string | null;
  keyIssued: boolean;
  remark: string | null;
  tenantId: string | null;
  createBy: string | null;
  createTime: string | null;
}
