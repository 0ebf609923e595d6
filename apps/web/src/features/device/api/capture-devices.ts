import { DevicePath, type CaptureDeviceList } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getCaptureDevices(): Promise<CaptureDeviceList> {
  return unwrap(await http.get<CaptureDeviceList>(DevicePath.captureList));
}

export const captureDevicesQuery = () => queryOptions({ queryKey: ['crud', 'device', 'capture'], queryFn: getCaptureDevices });

/** GET /sysDevice/capturelist: the caller's devices and the current capture device. */
export function useCaptureDevices() {
  return useQuery(captureDevicesQuery());
}
