import { isTimeSettingActive, readTimeSetting, wallTimeAt, type DoorScheduleEntry, type SyncDoorSchedulesPayload } from '@isps/contract';
import type { SiteCalendar } from './access-window.ts';

/** What a simulated door controller holds of its door schedules, and the doors an emergency holds open. */
export interface HeldDoorSchedules {
  doors: DoorScheduleEntry[];
  timeZone: string | null;
  version: string | null;
  /** doors held open by the emergency (`holdOpen`) until told to go back to normal */
  heldOpen: Set<number>;
}

export function emptyHeldDoorSchedules(): HeldDoorSchedules {
  return { doors: [], timeZone: null, version: null, heldOpen: new Set() };
}

/**
 * A door controller's lock rules, on the schedules the console sent (`syncDoorSchedules` replaces them whole), read at
 * the device's own clock so they hold without the console: a door stands unlocked while one of its schedules' time
 * settings is in force (the contract's evaluator, in the site's zone) and the day is no holiday of the site; locked
 * otherwise. A door the emergency holds open is unlocked whatever its schedule says.
 */
export class DoorScheduleStore {
  constructor(private readonly held: HeldDoorSchedules) {}

  apply(payload: SyncDoorSchedulesPayload): void {
    this.held.doors = payload.doors;
    this.held.timeZone = payload.timeZone;
    this.held.version = payload.version;
  }

  get version(): string | null {
    return this.held.version;
  }

  /** The doors the schedules name or the emergency holds. */
  doors(): number[] {
    return [...new Set([...this.held.doors.map((d) => d.door), ...this.held.heldOpen])].sort((a, b) => a - b);
  }

  hold(door: number, open: boolean): void {
    if (open) this.held.heldOpen.add(door);
    else this.held.heldOpen.delete(door);
  }

  /** Whether the door's schedules unlock it at `time` (the emergency aside). */
  scheduledOpen(door: number, time: number, site: SiteCalendar): boolean {
    const entry = this.held.doors.find((d) => d.door === door);
    if (!entry) return false;
    const calendar = { timeZone: this.held.timeZone ?? site.timeZone, holidays: site.holidays ?? [] };
    if (calendar.holidays.includes(wallTimeAt(time, calendar.timeZone).day)) return false;
    return entry.times.some((text) => {
      const setting = readTimeSetting(text);
      // a setting the device cannot read unlocks nothing
      return setting !== null && isTimeSettingActive(setting, time, calendar);
    });
  }

  /** Whether the door is unlocked at `time`: held open by the emergency, or inside its schedule. */
  unlocked(door: number, time: number, site: SiteCalendar): boolean {
    return this.held.heldOpen.has(door) || this.scheduledOpen(door, time, site);
  }
}
