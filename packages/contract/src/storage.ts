import * as z from 'zod';
import { ID_PATTERN } from './ids.ts';

/**
 * Storage cabinets (lockers), SPEC sections 2 to 9: a cabinet device (system `storage`) holds numbered cabinets; the
 * console allocates them to people, the device learns each allocation over the device link (`syncCabinets`) and
 * reports openings, closings and clearings as events. Calls and device messages of the area live here.
 */

/** A cabinet's state (SPEC section 4): free, held, or held but emptied on the device (so it may go to someone else). */
export const CabinetStatus = { unassigned: 0, assigned: 1, assignable: 2 } as const;
export type CabinetStatus = (typeof CabinetStatus)[keyof typeof CabinetStatus];
export const CABINET_STATUSES = Object.values(CabinetStatus);

/** Who a cabinet is for: one person, or several sharing it. */
export const CabinetAttribute = { single: 1, multi: 2 } as const;
export const CABINET_ATTRIBUTES = Object.values(CabinetAttribute);

/** The most cabinets one device reports (numbered 1 to this). */
export const MAX_DEVICE_CABINETS = 512;
/** The most people one cabinet is allocated to. */
export const MAX_CABINET_HOLDERS = 50;
/** How long before an allocation ends its holder and the managers are told (ms). */
export const CABINET_EXPIRY_NOTICE_MS = 24 * 60 * 60_000;

export const StoragePath = {
  /** GET `?deviceId=`: areas → cabinet devices → cabinets (`CabinetTreeNode[]`); with `deviceId`, that device's cabinets only */
  queryCabinetTree: '/cabinet/cabinet/queryCabinetTree',
  /** POST `AllocateCabinetBody`: the cabinet goes to these people ('Allocation succeeded' / 'Allocation failed: …') */
  allocateCabinet: '/cabinet/cabinet/allocateCabinet',
  /** POST `{ id }`: the cabinet's holders leave it, and the device clears it */
  releaseCabinet: '/cabinet/cabinet/releaseCabinet',
  /** POST `{ id }`: opens one cabinet door now (the device must be online; nothing is queued to run later) */
  openCabinet: '/cabinet/cabinet/openCabinet',
  /** GET: the storage managers of the caller's tenant with the devices each manages (`StorageManagerSummary[]`) */
  queryAllManager: '/cabinet/managerUser/queryAllManager',
  /** GET: the ids of the cabinet devices the caller may hand to a manager (the ones he manages), or null for any */
  manageableDevices: '/cabinet/managerUser/manageableDevices',
  /** GET list parameters `pageNo`, `pageSize`, `name`: people as the storage system knows them (`StorageUserInfo` page) */
  userInfoList: '/cabinet/userInfo/list',
  /** POST `InterfaceTestBody`: sends one command to a cabinet device and waits for its answer (`InterfaceTestResult`) */
  interfaceTest: '/cabinet/interfaceTest/send',
  /** GET: the cabinet devices the interface test may address, by name (`CabinetDeviceOption[]`), under its own permission */
  interfaceTestDevices: '/cabinet/interfaceTest/devices',
  /** GET `?versionCode=` by a cabinet terminal (`X-Device-Sn`, `X-Device-Key`): the newest app version above its own, or null */
  checkUpdateLatest: '/cabinet/checkUpdate/latest',
  /** GET `?id=` by a cabinet terminal (`X-Device-Sn`, `X-Device-Key`): the package of an offered version */
  checkUpdatePackage: '/cabinet/checkUpdate/package',
} as const;

/**
 * Permission codes of the storage calls that are no declared screen's own action: the device area's cabinet screen
 * (its tree and allocation), people as storage knows them, the interface test.
 */
export const StoragePerm = {
  deviceCabinetList: 'device:cabinet:list',
  deviceCabinetAllocate: 'device:cabinet:allocate',
  userInfo: 'storage:userInfo:list',
  interfaceTest: 'storage:interfaceTest:view',
} as const;

/** What `checkUpdateLatest` answers a terminal with a newer version to take (null when none). */
export interface AppUpdateOffer {
  id: string;
  versionName: string;
  versionCode: number;
  forceUpdate: boolean;
  description: string | null;
  /** below the API prefix of the server the terminal was provisioned with */
  path: string;
}

/** The `{product}` of SPEC section 7's `/{product}/managerUser/queryAllManager`: storage cabinets and key cabinets. */
export const MANAGER_PRODUCTS = ['cabinet', 'ks'] as const;
export const queryAllManagerPath = (product: (typeof MANAGER_PRODUCTS)[number]) => `/${product}/managerUser/queryAllManager`;

const idSchema = z.string().regex(ID_PATTERN);

export const allocateCabinetBody = z.object({
  /** the cabinet */
  id: idSchema,
  /** the people it goes to (one for a one-person cabinet) */
  peopleIds: z.array(idSchema).min(1).max(MAX_CABINET_HOLDERS),
  /** when the allocation ends (`yyyy-MM-dd HH:mm:ss`); none: until released */
  expireTime: z.string().max(32).nullish(),
});
export type AllocateCabinetBody = z.infer<typeof allocateCabinetBody>;

export type CabinetTreeNodeType = 'area' | 'device' | 'cabinet';
/** A node of the cabinet tree: `key` is `area:<id>`, `device:<id>` or the cabinet's id. */
export interface CabinetTreeNode {
  key: string;
  id: string;
  title: string;
  type: CabinetTreeNodeType;
  /** cabinets: number, state, attribute, holders' names */
  cabinetNo?: number;
  status?: CabinetStatus;
  status_dictText?: string;
  attribute?: number;
  holders?: string[];
  /** cabinets: the holders' ids, in the order of `holders` (the allocate dialog starts from them) */
  holderIds?: string[];
  /** devices: online, sync mode */
  online?: boolean;
  syncMode?: string;
  children?: CabinetTreeNode[];
}

export interface StorageManagerSummary {
  id: string;
  userId: string;
  username: string;
  realname: string;
  deviceIds: string[];
}

export interface StorageUserInfo {
  id: string;
  name: string;
  userNo: string | null;
  departName: string | null;
  /** the cabinets the person holds, as `<device name> #<number>` */
  cabinets: string[];
  cabinetCount: number;
  lastOpenTime: string | null;
}

/** A cabinet device as the interface test offers it. */
export interface CabinetDeviceOption {
  id: string;
  deviceName: string;
  sn: string;
  online: number;
}

/** What the interface test sends: the terminal's state, one cabinet's door, clearing one cabinet, or a compare-and-align. */
export const INTERFACE_TEST_COMMANDS = ['status', 'open', 'clear', 'sync'] as const;
export type InterfaceTestCommand = (typeof INTERFACE_TEST_COMMANDS)[number];
export const interfaceTestBody = z.object({
  deviceId: idSchema,
  command: z.enum(INTERFACE_TEST_COMMANDS),
  /** the cabinet of `open` and `clear` */
  cabinetNo: z.number().int().min(1).max(MAX_DEVICE_CABINETS).optional(),
});
export type InterfaceTestBody = z.infer<typeof interfaceTestBody>;
/** How long the interface test waits for the device's answer (the command expires then: it never runs later). */
export const INTERFACE_TEST_WAIT_MS = 10_000;
export interface InterfaceTestResult {
  commandId: string;
  kind: string;
  /** answered: the device acknowledged (`ok`, `reply`); timeout: no answer within the wait (the command will not run later) */
  status: 'answered' | 'timeout';
  ok: boolean | null;
  reply: unknown;
  elapsedMs: number;
}

// Device link ------------------------------------------------------------------------------------------------------

export const StorageCommandKind = {
  /** `SyncCabinetsPayload`: what the device's cabinets are allocated to (no time to live: it waits for the device) */
  syncCabinets: 'syncCabinets',
  /** `{}`: the device answers what it holds, `{ held: ["<cabinetNo>:<version>", …] }` (compare-and-align) */
  cabinetReport: 'cabinetReport',
  /** `{ cabinet }`: open one cabinet door now (10 s to live) */
  openCabinet: 'openCabinet',
  /** `{ cabinet }`: empty one cabinet on the device (the interface test); the device reports `cabinetCleared` */
  clearCabinet: 'clearCabinet',
  /** `{}`: the terminal's state, `{ cabinets, open: [numbers], appVersion }` */
  cabinetStatus: 'cabinetStatus',
  /**
   * the emergency: `{ cabinets: [numbers], open: true }` keeps those cabinet doors open (each reported as a
   * `cabinetOpen` with method `emergency`) until `{ cabinets, open: false }`; `drill: true` for a drill. Queued like the
   * doors' holdOpen (no time to live: the release follows the hold)
   */
  releaseCabinets: 'releaseCabinets',
} as const;

/** One cabinet as the device is told it: its holders with what identifies them, and until when. */
export interface CabinetEntry {
  no: number;
  holders: Array<{ peopleId: string; name: string; userNo: string | null; cardNo: string | null }>;
  /** epoch ms; null: until released */
  expireAt: number | null;
  version: string;
}
export const SyncCabinetsOp = { upsert: 'upsert', clear: 'clear' } as const;
export type SyncCabinetsPayload = { op: 'upsert'; cabinets: CabinetEntry[] } | { op: 'clear' };

/** Event data of a cabinet device (event kinds `cabinetOpen`, `cabinetClose`, `cabinetCleared`). */
export const cabinetOpenData = z.object({
  cabinet: z.number().int().min(1).max(MAX_DEVICE_CABINETS),
  peopleId: z.string().max(64).optional(),
  cardNo: z.string().max(64).optional(),
  method: z.string().max(16).optional(),
});
export const cabinetNoData = z.object({ cabinet: z.number().int().min(1).max(MAX_DEVICE_CABINETS) });
