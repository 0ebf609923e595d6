import { AccessCommandKind, CaptureCommandKind, DEVICE_KEY_GRACE_MS, DEVICE_LOG_UPLOAD_TTL_MS, DeviceCommandKind, DOOR_OPEN_TTL_MS, ENROLL_WAIT_MS, ID_CARD_WAIT_MS, INTERFACE_TEST_WAIT_MS, KeyCommandKind, SEND_LOG_COMMAND, StorageCommandKind } from '@isps/contract';

/**
 * How long each kind of command may wait for its device, in milliseconds (null: until the device takes it). Past it
 * the gateway never delivers the command and the device drops it (docs/device-protocol.md, "Command time to live").
 */
export const COMMAND_TTL_MS: Readonly<Record<string, number | null>> = {
  // a door opens now or not at all
  [DeviceCommandKind.openDoor]: DOOR_OPEN_TTL_MS,
  [DeviceCommandKind.reboot]: 60_000,
  // the settings in force are wanted whenever the device comes back
  [DeviceCommandKind.setParams]: null,
  // an emergency's end queues the release behind its hold, so the queue always ends in the scenario's state
  [DeviceCommandKind.holdOpen]: null,
  [DeviceCommandKind.softUpdate]: 24 * 60 * 60_000,
  // a log is asked for by someone waiting for it; its upload token lasts as long
  [SEND_LOG_COMMAND]: DEVICE_LOG_UPLOAD_TTL_MS,
  // past the old key's grace the device cannot sign in to take the new one: the queue keeps no key longer than that
  [DeviceCommandKind.rotateKey]: DEVICE_KEY_GRACE_MS,
  // the access list waits for the device: people it lacks are people kept out
  [AccessCommandKind.syncPeople]: null,
  [AccessCommandKind.accessReport]: null,
  // nobody waits for an enrollment or a card read any longer than this
  [CaptureCommandKind.enrollPalm]: ENROLL_WAIT_MS,
  [CaptureCommandKind.cancelEnroll]: ENROLL_WAIT_MS,
  [CaptureCommandKind.readIdCard]: ID_CARD_WAIT_MS,
  // what cabinets are allocated to waits for the device, as the access list does
  [StorageCommandKind.syncCabinets]: null,
  [StorageCommandKind.cabinetReport]: null,
  // the emergency's lockers: the release is queued behind the hold, as the doors' holdOpen
  [StorageCommandKind.releaseCabinets]: null,
  // a cabinet opens now or not at all; the interface test's commands run while someone waits for them, or never
  [StorageCommandKind.openCabinet]: DOOR_OPEN_TTL_MS,
  [StorageCommandKind.clearCabinet]: INTERFACE_TEST_WAIT_MS,
  [StorageCommandKind.cabinetStatus]: INTERFACE_TEST_WAIT_MS,
  // who may take which key waits for the key cabinet; the emergency's keys are released behind their hold
  [KeyCommandKind.syncKeys]: null,
  [KeyCommandKind.releaseKeys]: null,
};

/** The time to live of a kind of command: the gateway's own setting, else the default; kinds not listed wait. */
export function commandTtlMs(kind: string, overrides: Readonly<Record<string, number | null>> = {}): number | null {
  return overrides[kind] !== undefined ? overrides[kind] : (COMMAND_TTL_MS[kind] ?? null);
}
