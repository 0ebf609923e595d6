import { newMemory, SimDevice, type DeviceMemory, type EnrollOutcome, type SimKind } from './device.ts';

export interface FleetOptions {
  url: string;
  /** serial number → device key */
  keys: ReadonlyMap<string, string>;
  kinds: readonly SimKind[];
  /** events per second per device */
  rate?: number;
  /** alarms per hour per device, at random moments (0 by default) */
  alarmsPerHour?: number;
  topicRoot?: string;
  /** memories that outlive this fleet (a restart of the simulator keeps them) */
  memories?: Map<string, DeviceMemory>;
  /** share of software updates that fail (see SimDeviceOptions) */
  softUpdateFailRate?: number;
  softUpdateStepMs?: number;
  apiUrl?: string;
  /** what a device uploads when asked for its log (see SimDeviceOptions) */
  logFile?: { name: string; content: string | Buffer };
  /** capture devices: the ID card on their readers, how long an enrollment takes and how it ends (see SimDeviceOptions) */
  idCard?: string | null;
  enrollDelayMs?: number;
  enrollOutcome?: EnrollOutcome;
  /** time between two heartbeats, and the backoff of reconnecting (see SimDeviceOptions) */
  heartbeatMs?: number;
  /** the doors each door controller reports in its hello, with each device's kind (see SimDeviceOptions) */
  doors?: number;
  /** the cabinets each cabinet device reports in its hello */
  cabinets?: number;
  reconnectMs?: number;
  reconnectMaxMs?: number;
}

export interface Fleet {
  devices: SimDevice[];
  device(sn: string): SimDevice;
  stop(): Promise<void>;
}

/** Starts one simulated device per key, kinds taken in turn; resolves once every device has said hello. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const devices = [...options.keys].map(([sn, key], index) => {
    let memory = options.memories?.get(sn);
    if (!memory) {
      memory = newMemory();
      options.memories?.set(sn, memory);
    }
    return new SimDevice({ url: options.url, sn, key, kind: options.kinds[index % options.kinds.length]!, rate: options.rate, alarmsPerHour: options.alarmsPerHour, topicRoot: options.topicRoot, memory, softUpdateFailRate: options.softUpdateFailRate, softUpdateStepMs: options.softUpdateStepMs, apiUrl: options.apiUrl, logFile: options.logFile, idCard: options.idCard, enrollDelayMs: options.enrollDelayMs, enrollOutcome: options.enrollOutcome, heartbeatMs: options.heartbeatMs, doors: options.doors, cabinets: options.cabinets, reconnectMs: options.reconnectMs, reconnectMaxMs: options.reconnectMaxMs });
  });
  await Promise.all(devices.map((d) => d.start()));
  const bySn = new Map(devices.map((d) => [d.sn, d]));
  return {
    devices,
    device: (sn) => {
      const found = bySn.get(sn);
      if (!found) throw new Error(`no simulated device ${sn}`);
      return found;
    },
    stop: async () => {
      await Promise.all(devices.map((d) => d.stop()));
    },
  };
}
