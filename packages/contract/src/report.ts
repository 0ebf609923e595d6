import * as z from 'zod';
import { cronSchema } from './crud/job-entities.ts';
import { idSchema } from './ids.ts';

/**
 * Reports over what the devices stored (issue 31): passages by door, person, area and hour, denials by reason, alarms
 * by code and device, and how long doors stood held open or forced open. Each report covers a period (at most
 * REPORT_MAX_DAYS), takes filters, answers at most REPORT_MAX_ROWS rows, exports to xlsx and can be mailed on a
 * schedule through a message template.
 */
/** What each report screen answers, under `/report/<screen>/`. */
export const REPORT_VERBS = {
  /** GET `ReportQuery`: one report (`ReportResult`); `report:<screen>:view` */
  run: 'run',
  /** GET `ReportQuery`: the same report as xlsx; `report:<screen>:export` */
  exportXls: 'exportXls',
  /** GET: the screen's schedules (`ReportSchedule[]`); the others `report:<screen>:schedule` too */
  scheduleList: 'schedule/list',
  /** POST `ReportScheduleInput` */
  scheduleAdd: 'schedule/add',
  /** PUT `ReportScheduleInput & { id }` */
  scheduleEdit: 'schedule/edit',
  /** DELETE `?id=` */
  scheduleDelete: 'schedule/delete',
  /** POST `{ id }`: sends a schedule's report now */
  scheduleSend: 'schedule/send',
} as const;
export type ReportVerb = keyof typeof REPORT_VERBS;

export function reportPath(screen: ReportScreen, verb: ReportVerb): string {
  return `/report/${screen}/${REPORT_VERBS[verb]}`;
}

/** The report screens (menu `report.<screen>`) and the reports each holds, in tab order. */
export const REPORT_SCREENS = {
  access: ['accessByDoor', 'accessByPerson', 'accessByArea', 'accessByHour', 'denialsByReason'],
  alarm: ['alarmsByCode', 'doorOpenTimes'],
} as const;
export type ReportScreen = keyof typeof REPORT_SCREENS;
export type ReportKind = (typeof REPORT_SCREENS)[ReportScreen][number];
export const REPORT_KINDS = Object.values(REPORT_SCREENS).flat() as ReportKind[];

export function screenOfReport(kind: ReportKind): ReportScreen {
  return (Object.keys(REPORT_SCREENS) as ReportScreen[]).find((s) => (REPORT_SCREENS[s] as readonly string[]).includes(kind))!;
}

/** `report:<screen>:<action>` */
export function reportPermission(screen: ReportScreen, action: 'view' | 'export' | 'schedule'): string {
  return `report:${screen}:${action}`;
}

/** The columns of each report, in order: the first names the row, the others are figures. */
export const REPORT_COLUMNS: Record<ReportKind, readonly string[]> = {
  accessByDoor: ['door', 'device', 'passed', 'refused', 'total'],
  accessByPerson: ['person', 'userNo', 'passed', 'refused', 'total'],
  accessByArea: ['area', 'passed', 'refused', 'total'],
  accessByHour: ['hour', 'passed', 'refused', 'total'],
  denialsByReason: ['reason', 'count'],
  alarmsByCode: ['code', 'device', 'count', 'events'],
  doorOpenTimes: ['device', 'code', 'count', 'measured', 'totalSeconds', 'longestSeconds'],
};

/** The figures a report's chart draws. */
export const REPORT_CHART_VALUES: Record<ReportKind, readonly string[]> = {
  accessByDoor: ['passed', 'refused'],
  accessByPerson: ['passed', 'refused'],
  accessByArea: ['passed', 'refused'],
  accessByHour: ['passed', 'refused'],
  denialsByReason: ['count'],
  alarmsByCode: ['count'],
  doorOpenTimes: ['totalSeconds', 'longestSeconds'],
};

/** The filters each report takes. */
export const REPORT_FILTERS: Record<ReportKind, ReadonlyArray<'doorId' | 'peopleId' | 'areaId' | 'departId' | 'deviceId'>> = {
  accessByDoor: ['doorId', 'peopleId', 'areaId', 'departId', 'deviceId'],
  accessByPerson: ['doorId', 'peopleId', 'areaId', 'departId', 'deviceId'],
  accessByArea: ['doorId', 'peopleId', 'areaId', 'departId', 'deviceId'],
  accessByHour: ['doorId', 'peopleId', 'areaId', 'departId', 'deviceId'],
  denialsByReason: ['doorId', 'peopleId', 'areaId', 'departId', 'deviceId'],
  alarmsByCode: ['areaId', 'deviceId'],
  doorOpenTimes: ['areaId', 'deviceId'],
};

export const REPORT_MAX_DAYS = 366;
export const REPORT_MAX_ROWS = 1000;

const optionalId = idSchema.optional();

export const reportFiltersSchema = z.object({
  doorId: optionalId,
  peopleId: optionalId,
  areaId: optionalId,
  departId: optionalId,
  deviceId: optionalId,
});
export type ReportFilters = z.infer<typeof reportFiltersSchema>;

export const reportQuery = reportFiltersSchema.extend({
  kind: z.enum(REPORT_KINDS as [ReportKind, ...ReportKind[]], { error: 'validation.invalid' }),
  /** wire times `yyyy-MM-dd HH:mm:ss` */
  begin: z.string().min(1).max(40),
  end: z.string().min(1).max(40),
});
export type ReportQuery = z.infer<typeof reportQuery>;

export type ReportCell = string | number | null;
export interface ReportResult {
  kind: ReportKind;
  begin: string;
  end: string;
  columns: readonly string[];
  rows: Array<Record<string, ReportCell>>;
  /** true when more rows matched than REPORT_MAX_ROWS */
  capped: boolean;
}

/** The period a scheduled report covers: the day, week (Monday on) or month before the one it is sent in. */
export const REPORT_PERIODS = ['lastDay', 'lastWeek', 'lastMonth'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

export const reportScheduleInput = z.object({
  reportKind: z.enum(REPORT_KINDS as [ReportKind, ...ReportKind[]], { error: 'validation.invalid' }),
  period: z.enum(REPORT_PERIODS, { error: 'validation.invalid' }),
  filters: reportFiltersSchema.default({}),
  /** user ids of the caller's tenant */
  recipients: z.array(idSchema).min(1, { error: 'validation.required' }).max(50),
  templateCode: z.string().trim().min(1, { error: 'validation.required' }).max(100),
  cronExpression: cronSchema,
  status: z.union([z.literal(0), z.literal(-1)]).default(0),
});
export type ReportScheduleInput = z.infer<typeof reportScheduleInput>;
export const reportScheduleEdit = reportScheduleInput.extend({ id: idSchema });

export interface ReportSchedule extends Omit<ReportScheduleInput, 'filters'> {
  id: string;
  filters: ReportFilters;
  /** the recipients' names, in the order of `recipients` */
  recipientNames: string[];
  lastSendTime: string | null;
  lastResult: string | null;
}

/** The parameters a report's template may name: `${reportName}`, `${begin}`, `${end}`, `${rows}`, `${table}` (HTML). */
export const REPORT_TEMPLATE_PARAMS = ['reportName', 'begin', 'end', 'rows', 'table'] as const;
