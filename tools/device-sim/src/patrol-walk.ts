import type { DeviceEvent } from '@isps/contract';
import type { SimDevice } from './device.ts';

/** How a guard walks a route of patrol points. */
export interface RouteWalk {
  /** the guard's user number, sent with every check-in */
  userNo: string;
  /** indexes (0-based, in walking order) of the points the guard passes by without checking in */
  skip?: readonly number[];
  /** real time waited between two points */
  delayMs?: number;
  /** the check-in at this point is this much later than the device's clock says */
  lateBy?: { index: number; ms: number };
  /** each point's check-in time instead of its device's clock (epoch ms, by index) */
  times?: readonly number[];
}

/**
 * Walks patrol points in turn (SimDevices of kind `patrol`): each not skipped sends a `patrolCheckIn` with its point
 * label (`P1`, `P2`, … by position) and the guard's user number, at its own clock's time (or the time given). Answers
 * the events sent, by index (undefined for a skipped point).
 */
export async function walkRoute(devices: readonly SimDevice[], walk: RouteWalk): Promise<Array<DeviceEvent | undefined>> {
  const sent: Array<DeviceEvent | undefined> = [];
  for (const [index, device] of devices.entries()) {
    if (index > 0 && walk.delayMs) await new Promise((resolve) => setTimeout(resolve, walk.delayMs));
    if (walk.skip?.includes(index)) {
      sent.push(undefined);
      continue;
    }
    const late = walk.lateBy?.index === index ? walk.lateBy.ms : 0;
    sent.push(await device.checkIn(`P${index + 1}`, walk.userNo, (walk.times?.[index] ?? device.now()) + late));
  }
  return sent;
}
