import { isTimeSettingActive, readTimeSetting } from '@isps/contract';

/**
 * Whether a device role's stored time setting is in force at an instant, read in the site's zone (TIME_ZONE) with the
 * site's holidays. The simulated devices decide with the same contract evaluator (tools/device-sim access-window).
 * A stored setting that cannot be read is in force nowhere.
 */
export function timeSettingInForce(stored: string | null, at: number, site: { timeZone: string; holidays?: readonly string[] }): boolean {
  const setting = readTimeSetting(stored);
  return setting !== null && isTimeSettingActive(setting, at, site);
}
