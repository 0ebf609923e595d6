import { MonitorPath, type DiskInfo, type RedisInfoSection, type RedisTerminalAnswer, type RuntimeInfo, type ServerInfo, type TraceEntry, type WebServerInfo } from '@isps/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** What each screen reads; a failure is shown by the screen itself (its own message), so no global notice. */
export interface MonitorSources {
  disk: DiskInfo[];
  httpTrace: TraceEntry[];
  jvm: RuntimeInfo;
  tomcat: WebServerInfo;
  server: ServerInfo;
  redis: RedisInfoSection[];
}

export type MonitorScreen = keyof MonitorSources;

const paths: Record<MonitorScreen, string> = {
  disk: MonitorPath.disk,
  httpTrace: MonitorPath.httpTrace,
  jvm: MonitorPath.runtime,
  tomcat: MonitorPath.webServer,
  server: MonitorPath.server,
  redis: MonitorPath.redisInfo,
};

export async function getMonitor<S extends MonitorScreen>(screen: S): Promise<MonitorSources[S]> {
  return unwrap(await http.get<MonitorSources[S]>(paths[screen], undefined, { silent: true }));
}

/** A screen's figures, read again every `refreshSeconds` (0: only when asked). */
export function useMonitor<S extends MonitorScreen>(screen: S, refreshSeconds: number) {
  return useQuery({
    queryKey: ['monitor', screen],
    queryFn: () => getMonitor(screen),
    refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false,
    retry: false,
  });
}

export async function runRedisCommand(command: string): Promise<RedisTerminalAnswer> {
  return unwrap(await http.post<RedisTerminalAnswer>(MonitorPath.redisTerminal, { command }, { silent: true }));
}

export function useRedisCommand() {
  return useMutation({ mutationFn: runRedisCommand });
}
