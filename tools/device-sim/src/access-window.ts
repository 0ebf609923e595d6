import { isTimeSettingActive, readTimeSetting } from '@isps/contract';

/** What a device knows of its site: the zone its clock is read in and the site's holidays (`yyyy-MM-dd`). */
export interface SiteCalendar {
  timeZone: string;
  holidays?: readonly string[];
}

/**
 * Whether a device lets a role's holders pass at its own clock's instant: the time setting as the server delivers it
 * (its stored JSON text, empty for permanent), decided by the contract's evaluator. A setting it cannot read keeps
 * the door shut.
 */
export function accessAllowedAt(deliveredSetting: string | null, deviceTime: number, site: SiteCalendar): boolean {
  const setting = readTimeSetting(deliveredSetting);
  return setting !== null && isTimeSettingActive(setting, deviceTime, site);
}
