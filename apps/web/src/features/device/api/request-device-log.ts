import { DeviceLogFilePath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** POST /sysDeviceLogFile/request: queues a sendLog command; the device uploads its log, which then joins the list. */
export function requestDeviceLog(deviceId: string): Promise<Envelope<{ commandId: string }>> {
  return http.post<{ commandId: string }>(DeviceLogFilePath.request, { deviceId });
}

export function useRequestDeviceLog() {
  return useMutation({ mutationFn: (deviceId: string) => requestDeviceLog(deviceId) });
}
