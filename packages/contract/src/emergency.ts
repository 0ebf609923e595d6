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
} as const;

export const EmergencyPerm = {
  view: 'device:emergency:view',
  edit: 'device:emergency:edit',
  end: 'device:emergency:end',
} as const;

/** Intensities on the device's own seismic scale (0–12); a reading at or above the threshold starts the scenario. */
export const EMERGENCY_INTENSITY_MAX = 12;
export const EMERGENCY_DEFAULT_THRESHOLD = 5;

export const emergencySettingBody = z.object({
  enabled: z.boolean(),
  threshold: z.number().int().min(1).max(EMERGENCY_INTENSITY_MAX),
  egressDoorIds: z.array(z.string().regex(ID_PATTERN)).max(5000),
});
export type EmergencySetting = z.infer<typeof emergencySettingBody>;

export const emergencyEndBody = z.object({ id: z.string().regex(ID_PATTERN) });

/** A running (or just ended) scenario. Times are wire times (`yyyy-MM-dd HH:mm:ss`). */
export interface EmergencyScenario {
  id: string;
  /** the quake sensor whose reading started it */
  deviceId: string;
  deviceName: string;
  intensity: number;
  pga: number | null;
  startTime: string;
  /** how many egress doors were told to stay open */
  doorCount: number;
  endTime: string | null;
  endBy: string | null;
}

export type EmergencyState = { active: true; scenario: EmergencyScenario } | { active: false; scenario?: EmergencyScenario };

/** One person inside an area: the last access event of the person was an entry there. */
export interface MusterPerson {
  /** the person's row, when the event names a known user number or card */
  peopleId: string | null;
  name: string;
  userNo: string | null;
  /** where and when the person came in */
  doorName: string | null;
  since: string;
}

export interface MusterArea {
  areaId: string | null;
  areaName: string | null;
  people: MusterPerson[];
}

/** Data of the `emergency` real-time message: the scenario started (`active`) or ended. */
export type EmergencyNotice = EmergencyState;
