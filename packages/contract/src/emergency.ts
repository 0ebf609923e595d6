import * as z from 'zod';
import { ID_PATTERN } from './ids.ts';

/**
 * The emergency (quake) scenario: a quake reading at or above the tenant's intensity threshold holds the egress doors
 * open, puts a full-screen alarm with the muster list on every console of the tenant, and lasts until an operator
 * holding `device:emergency:end` ends it. One scenario at a time per tenant; every step is in the operation log.
 */
export const EmergencyPath = {
  /** GET: the scenario in force for the caller's tenant (`EmergencyState`), or `{ active: false }` */
  current: '/emergency/current',
  /** GET: who is inside, per area (`MusterArea[]`), from the last access event of each person */
  muster: '/emergency/muster',
  /** POST `{ id }`: ends the scenario (device:emergency:end) */
  end: '/emergency/end',
  /** GET / PUT `EmergencySetting`: threshold and egress doors */
  setting: '/emergency/setting',
  /** POST `{}`: starts a drill (device:emergency:drill): the scenario runs as for a quake, marked as a drill */
  drill: '/emergency/drill',
  /** POST `RollCallBody`: marks a person of the running scenario's muster list safe, or not (device:emergency:rollCall) */
  rollCall: '/emergency/rollCall',
  /** GET: the page of past and running emergencies (`EmergencyScenario`), newest first (device:emergency:view) */
  list: '/emergency/list',
  /** GET `?id=`: one emergency's report (`EmergencyReport`) (device:emergency:view) */
  queryById: '/emergency/queryById',
  /** GET `?id=`: the roll call of one emergency as xlsx (device:emergency:view, or anyone while it runs) */
  exportXls: '/emergency/exportXls',
  /** GET: what the running scenario released and where each device is with it (`EmergencyRelease[]`; anyone while it runs) */
  releases: '/emergency/releases',
} as const;

/** What a scenario released on one device: an egress door held open, or lockers and keys freed. */
export type EmergencyReleaseKind = 'door' | 'lockers' | 'keys';
/** queued: waiting for the device; sent: on its way; done: the device acknowledged; failed: it refused */
export type EmergencyReleaseState = 'queued' | 'sent' | 'done' | 'failed';
export interface EmergencyRelease {
  kind: EmergencyReleaseKind;
  deviceId: string;
  /** the door's name, or the device's */
  name: string;
  /** the door's number, or how many cabinets or keys */
  count: number;
  online: boolean;
  state: EmergencyReleaseState;
}

export const EmergencyPerm = {
  view: 'device:emergency:view',
  edit: 'device:emergency:edit',
  end: 'device:emergency:end',
  drill: 'device:emergency:drill',
  rollCall: 'device:emergency:rollCall',
} as const;

/** Intensities on the device's own seismic scale (0–12); a reading at or above the threshold starts the scenario. */
export const EMERGENCY_INTENSITY_MIN = 1;
export const EMERGENCY_INTENSITY_MAX = 12;
export const EMERGENCY_DEFAULT_THRESHOLD = 5;

/** A threshold the scenario can use: a whole intensity of the scale. Out of it is refused with the range, never clamped. */
export function thresholdInRange(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= EMERGENCY_INTENSITY_MIN && value <= EMERGENCY_INTENSITY_MAX;
}

export const emergencySettingBody = z.object({
  enabled: z.boolean(),
  // any number is read, so the range is refused with a message naming it (emergency.thresholdRange), not a schema text
  threshold: z.number(),
  egressDoorIds: z.array(z.string().regex(ID_PATTERN)).max(5000),
});
export type EmergencySetting = z.infer<typeof emergencySettingBody>;

export const emergencyEndBody = z.object({ id: z.string().regex(ID_PATTERN) });

export const emergencyIdQuery = z.object({ id: z.string().regex(ID_PATTERN) });

export const emergencyListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** Marks a person of the running scenario safe (`safe` true) or takes the mark back. */
export const rollCallBody = z.object({ id: z.string().regex(ID_PATTERN), peopleId: z.string().regex(ID_PATTERN), safe: z.boolean() });
export type RollCallBody = z.infer<typeof rollCallBody>;

/** A running (or just ended) scenario. Times are wire times (`yyyy-MM-dd HH:mm:ss`). */
export interface EmergencyScenario {
  id: string;
  /** started by an operator to practise: shown as a drill on every console, in the log, the report and to devices */
  drill: boolean;
  /** the quake sensor whose reading started it (null for a drill) */
  deviceId: string | null;
  deviceName: string | null;
  /** who started it: the operator of a drill, the sensor's serial number for a quake */
  startBy: string | null;
  intensity: number;
  pga: number | null;
  startTime: string;
  /** how many egress doors were told to stay open */
  doorCount: number;
  /** how many lockers marked "release in emergency" were told to open */
  cabinetCount: number;
  /** how many keys marked "release in emergency" were freed */
  keyCount: number;
  endTime: string | null;
  endBy: string | null;
}

export type EmergencyState = { active: true; scenario: EmergencyScenario } | { active: false; scenario?: EmergencyScenario };

/** One person inside an area: the last access event of the person was an entry there. */
export interface MusterPerson {
  /** the person's row: only known people are mustered */
  peopleId: string;
  name: string;
  userNo: string | null;
  /** where and when the person came in */
  doorName: string | null;
  since: string;
  /** the roll call of the running scenario: who marked the person safe and when, null while unaccounted for */
  safeBy: string | null;
  safeTime: string | null;
}

/** An entry by a card or user number no person holds: listed apart, never counted as a person. */
export interface MusterUnknown {
  /** the card's last four characters (`****1234`) or the unknown user number */
  label: string;
  doorName: string | null;
  since: string;
}

export interface MusterArea {
  areaId: string | null;
  areaName: string | null;
  people: MusterPerson[];
  unknown: MusterUnknown[];
}

/** One person of an emergency's roll call: inside at its start or end, or marked safe during it. */
export interface RollCallEntry {
  peopleId: string;
  name: string;
  userNo: string | null;
  areaName: string | null;
  doorName: string | null;
  safeBy: string | null;
  safeTime: string | null;
}

/** An emergency kept as a report: when and by whom it started and ended, the doors it opened, the roll call. */
export interface EmergencyReport {
  scenario: EmergencyScenario;
  doors: Array<{ id: string; name: string }>;
  rollCall: RollCallEntry[];
}

/** Data of the `emergency` real-time message: the scenario started (`active`) or ended. */
export type EmergencyNotice = EmergencyState;
