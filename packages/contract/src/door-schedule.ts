/**
 * Door schedules (issue 30, "Door schedules"): a door unlocked inside the periods of a time setting (a lobby open
 * during business hours), locked outside them and on the site's holidays. The door controller is sent the schedules
 * of its doors over the device link (`syncDoorSchedules`) and applies them from its own clock, so a schedule holds
 * while the device is offline. An emergency's hold overrides every schedule until the emergency ends.
 */

export const DoorScheduleCommandKind = {
  /** `SyncDoorSchedulesPayload`: every schedule of the device's doors (no time to live: it waits for the device) */
  syncDoorSchedules: 'syncDoorSchedules',
} as const;

export const DoorSchedulePath = {
  /** GET: the ids of the doors the caller may name in a door schedule, or null for any of his tenant's */
  bindableDoors: '/doorSchedule/bindableDoors',
} as const;

/** The schedules of one door of the device: it is unlocked while any of `times` is in force (and the day is no holiday). */
export interface DoorScheduleEntry {
  /** the door number on the device (1 to MAX_DEVICE_DOORS) */
  door: number;
  /** the time settings (JSON texts, as the device roles store them) of the enabled schedules that name the door */
  times: string[];
}

/** The device replaces what it held with `doors`; `version` names the list (the same list gives the same version). */
export interface SyncDoorSchedulesPayload {
  doors: DoorScheduleEntry[];
  /** the site's zone the periods are read in (the console's TIME_ZONE) */
  timeZone: string;
  version: string;
}
