import { DeviceCommandStatus, DoorPath, type Envelope } from '@isps/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface DoorCommand {
  id: string;
  kind: string;
  status: DeviceCommandStatus;
  attempts: number;
  sentTime: string | null;
  ackedTime: string | null;
  result: unknown;
}

/** POST /sysDoor/open: queues an openDoor command for the door's device; the envelope names the command. */
export function openDoor(id: string): Promise<Envelope<{ commandId: string }>> {
  return http.post<{ commandId: string }>(DoorPath.open, { id });
}

export function useOpenDoor() {
  return useMutation({ mutationFn: openDoor });
}

export async function getDoorCommand(id: string): Promise<DoorCommand> {
  return unwrap(await http.get<DoorCommand>(DoorPath.command, { id }, { silent: true }));
}

/** A command is settled once its device acknowledged it, it failed or it expired; until then it is asked again. */
export const isSettled = (status: DeviceCommandStatus | undefined) => status === DeviceCommandStatus.acked || status === DeviceCommandStatus.failed || status === DeviceCommandStatus.expired;

export const DOOR_COMMAND_POLL_MS = 1000;

export const doorCommandQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['device', 'doorCommand', id],
    queryFn: () => getDoorCommand(id as string),
    enabled: id !== null,
    refetchInterval: (query) => (isSettled(query.state.data?.status) ? false : DOOR_COMMAND_POLL_MS),
  });

/** GET /sysDoor/command: the state of a queued door command, asked every second until the device settles it. */
export function useDoorCommand(id: string | null) {
  return useQuery(doorCommandQuery(id));
}
