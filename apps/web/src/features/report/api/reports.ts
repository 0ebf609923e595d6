import { reportPath, type ReportFilters, type ReportKind, type ReportResult, type ReportSchedule, type ReportScheduleInput, type ReportScreen } from '@isps/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { saveBlob } from '../../../shared/crud/index.ts';

export interface ReportRequest extends ReportFilters {
  kind: ReportKind;
  /** wire times `YYYY-MM-DD HH:mm:ss`, begin included, end excluded */
  begin: string;
  end: string;
}

const paramsOf = (request: ReportRequest) => Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Record<string, string>;

export async function getReport(screen: ReportScreen, request: ReportRequest): Promise<ReportResult> {
  return unwrap(await http.get<ReportResult>(reportPath(screen, 'run'), paramsOf(request)));
}

export function useReport(screen: ReportScreen, request: ReportRequest) {
  return useQuery({ queryKey: ['report', screen, request], queryFn: () => getReport(screen, request), placeholderData: keepPreviousData });
}

/** GET …/exportXls: the report as xlsx, saved under the server's file name. */
export async function exportReport(screen: ReportScreen, request: ReportRequest): Promise<void> {
  const { blob, fileName } = await http.download(reportPath(screen, 'exportXls'), paramsOf(request));
  saveBlob(blob, fileName ?? `${request.kind}.xlsx`);
}

export function useExportReport(screen: ReportScreen) {
  return useMutation({ mutationFn: (request: ReportRequest) => exportReport(screen, request) });
}

const schedulesKey = (screen: ReportScreen) => ['report', screen, 'schedules'] as const;

export function useReportSchedules(screen: ReportScreen, enabled: boolean) {
  return useQuery({ queryKey: schedulesKey(screen), queryFn: async () => unwrap(await http.get<ReportSchedule[]>(reportPath(screen, 'scheduleList'))), enabled });
}

export function useSaveReportSchedule(screen: ReportScreen) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string; input: ReportScheduleInput }) =>
      id ? unwrap(await http.put<null>(reportPath(screen, 'scheduleEdit'), { ...input, id })) : unwrap(await http.post<{ id: string }>(reportPath(screen, 'scheduleAdd'), input)),
    onSuccess: () => client.invalidateQueries({ queryKey: schedulesKey(screen) }),
  });
}

export function useDeleteReportSchedule(screen: ReportScreen) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap(await http.delete<null>(reportPath(screen, 'scheduleDelete'), { id })),
    onSuccess: () => client.invalidateQueries({ queryKey: schedulesKey(screen) }),
  });
}

export function useSendReportSchedule(screen: ReportScreen) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap(await http.post<{ outcome: string }>(reportPath(screen, 'scheduleSend'), { id })),
    onSettled: () => client.invalidateQueries({ queryKey: schedulesKey(screen) }),
  });
}
