/**
 * The name the console gives a door a controller reports in its hello, in each language ("Lobby door 2"), until the
 * operator renames it. Stored in its English form by the device (`create_by` 'device') and shown in the reader's
 * language while it holds that form (seeded-texts.ts).
 */
export function deviceDoorNames(deviceName: string, doorNo: number): readonly [enUS: string, zhCN: string, jaJP: string] {
  return [`${deviceName} door ${doorNo}`, `${deviceName} ${doorNo}号门`, `${deviceName} ドア${doorNo}`];
}

/** Who creates the rows a device's hello makes (its doors, its model's device type). */
export const DEVICE_CREATOR = 'device';

/** The device name and door number of a generated door name in its stored (English) form, or null. */
export function parseDeviceDoorName(name: string): { deviceName: string; doorNo: number } | null {
  const match = /^(.*) door (\d{1,2})$/.exec(name);
  return match ? { deviceName: match[1]!, doorNo: Number(match[2]) } : null;
}
