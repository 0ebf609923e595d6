import { AlarmPath, type AlarmBatchAction, type AlarmBatchBody, type AlarmFilter, type Envelope } from '@isps/contract';
import { http } from '../../../shared/api/index.ts';

/** GET /sysDeviceAlarm/batchCount: how many alarms handling those matching `filter` would change. */
export function countAlarmBatch(action: AlarmBatchAction, filter: AlarmFilter): Promise<Envelope<{ count: number }>> {
  return http.get<{ count: number }>(AlarmPath.batchCount, { to: action, ...filter });
}

/** PUT /sysDeviceAlarm/acknowledgeBatch or closeBatch: the chosen alarms, or every one matching a filter. */
export function handleAlarms(action: AlarmBatchAction, body: AlarmBatchBody): Promise<Envelope<{ count: number }>> {
  return http.put<{ count: number }>(action === 'acknowledge' ? AlarmPath.acknowledgeBatch : AlarmPath.closeBatch, body);
}
