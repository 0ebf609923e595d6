import * as z from 'zod';

/**
 * Key cabinets (SPEC section 2 "ks", section 3 "Device role / key role"): a key-cabinet device (system `ks`) holds
 * keys in numbered slots. Key people are the people who may take keys at all; key roles (device roles of the key
 * kind) say which keys they may take and when. The device learns who may take each key over the device link
 * (`syncKeys`) and reports every take and return; a key kept past the end of its holder's window raises one alarm.
 */

/** Where a key is: in its slot, or out with someone. */
export const KeyStatus = { inCabinet: 0, taken: 1 } as const;
export type KeyStatus = (typeof KeyStatus)[keyof typeof KeyStatus];

/** The `role_type` of key roles among the device roles (dictionary `device_role_type`). */
export const KEY_ROLE_TYPE = '5';

/** The most slots one key cabinet has (numbered 1 to this). */
export const MAX_KEY_SLOTS = 200;
/** The alarm code of a key not returned by the end of its holder's window. */
export const KEY_OVERDUE_ALARM = 'keyOverdue';

export const KeyPath = {
  /** GET `?id=`: the key's takes and returns, newest first (`KeyHistoryRow[]`, at most KEY_HISTORY_LIMIT) */
  history: '/ks/key/history',
} as const;
export const KEY_HISTORY_LIMIT = 200;

/** One take of a key, with its return once it came back. */
export interface KeyHistoryRow {
  id: string;
  takeTime: string;
  returnTime: string | null;
  peopleId: string | null;
  peopleName: string | null;
  /** the card shown, masked */
  idCard: string | null;
  /** when the window of the take ended with the key still out (the overdue alarm was raised then) */
  overdueTime: string | null;
}

// Device link ------------------------------------------------------------------------------------------------------

export const KeyCommandKind = {
  /** `SyncKeysPayload`: the whole list of the device's keys and who may take each (no time to live: it waits for the device) */
  syncKeys: 'syncKeys',
  /**
   * the emergency: `{ slots: [numbers], open: true }` frees those keys for anyone until `{ slots, open: false }`;
   * `drill: true` for a drill. Queued like the doors' holdOpen
   */
  releaseKeys: 'releaseKeys',
} as const;

/** Who may take a key: the person, with what identifies them, and the time settings (JSON texts) of the roles that give it. */
export interface KeyHolder {
  peopleId: string;
  name: string;
  userNo: string | null;
  cardNo: string | null;
  /** any one in force lets them take the key (the contract's time-setting evaluator, in the site's zone) */
  times: string[];
}
export interface KeyEntry {
  slot: number;
  keyId: string;
  name: string;
  holders: KeyHolder[];
}
/** The device replaces what it held with `keys`; `version` names the list (the same list gives the same version). */
export interface SyncKeysPayload {
  keys: KeyEntry[];
  version: string;
}

/** Event data of a key cabinet (event kinds `keyTaken`, `keyReturned`). */
export const keyTakenData = z.object({
  slot: z.number().int().min(1).max(MAX_KEY_SLOTS),
  peopleId: z.string().max(64).optional(),
  cardNo: z.string().max(64).optional(),
  method: z.string().max(16).optional(),
});
export const keyReturnedData = z.object({ slot: z.number().int().min(1).max(MAX_KEY_SLOTS) });

/** What `RealtimeCmd.keyOverdue` carries (`data`): the localised text is built by the console from these. */
export interface KeyOverdueNotice {
  keyId: string;
  keyName: string;
  deviceName: string;
  peopleName: string | null;
  /** `yyyy-MM-dd HH:mm:ss` of the take */
  takeTime: string;
  alarmId: string;
}
