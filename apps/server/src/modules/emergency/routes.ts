import {
  EMERGENCY_INTENSITY_MAX,
  EMERGENCY_INTENSITY_MIN,
  EmergencyPath,
  EmergencyPerm,
  emergencyEndBody,
  emergencyIdQuery,
  emergencyListQuery,
  emergencySettingBody,
  rollCallBody,
  thresholdInRange,
  translate,
  type Language,
} from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { tableWorkbook } from '../../platform/crud/excel.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { currentEmergency, emergencyReport, emergencySetting, endEmergency, evaluateQuakeReadings, listEmergencies, markSafe, musterList, saveEmergencySetting, scenarioReleases, startDrill } from './service.ts';

const tags = ['emergency'];

/** The roll call of a report as a sheet in the reader's language: one row per person, safe or not accounted for. */
async function rollCallSheet(lang: Language, zone: string, report: Awaited<ReturnType<typeof emergencyReport>>): Promise<Buffer> {
  const t = (key: Parameters<typeof translate>[1]) => translate(lang, key);
  const time = (value: string | null) => (value ? formatWireTime(value, zone) : '');
  const headers = [t('emergency.sheet.name'), t('emergency.sheet.userNo'), t('emergency.sheet.area'), t('emergency.sheet.door'), t('emergency.sheet.status'), t('emergency.sheet.safeBy'), t('emergency.sheet.safeTime')];
  const rows = report.rollCall.map((r) => [r.name, r.userNo, r.areaName, r.doorName, r.safeBy ? t('emergency.sheet.safe') : t('emergency.sheet.missing'), r.safeBy, time(r.safeTime)]);
  return tableWorkbook(t('emergency.sheet.rollCall'), headers, rows);
}

/**
 * The emergency (quake) scenario: quake readings are evaluated as the device link receives them; every signed-in
 * user reads the running scenario and, while it runs, the muster list (the alarm is on every console); the setting,
 * a drill, the roll call, the reports and the end of a scenario need their permissions.
 */
export const emergencyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.deviceGateway.observe({ events: (device, events) => evaluateQuakeReadings(app, device, events) });

  /** outside a scenario only the holders of the emergency screen read who is inside */
  const mayReadMuster = async (caller: CurrentUser) => caller.tenantScope !== null && (caller.permissions.has(EmergencyPerm.view) || (await currentEmergency(app, caller.tenantScope)).active);

  app.get(EmergencyPath.current, { schema: { tags, summary: 'The emergency scenario running for the caller’s tenant' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    return reply.ok(await currentEmergency(app, callerOf(request).tenantScope));
  });

  app.get(EmergencyPath.muster, { schema: { tags, summary: 'Who is inside, per area, from the last access event of each person, with the roll call' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const caller = callerOf(request);
    if (caller.tenantScope === null || !(await mayReadMuster(caller))) refuse('emergency.notActive');
    return reply.ok(await musterList(app, caller.tenantScope));
  });

  app.get(EmergencyPath.releases, { schema: { tags, summary: 'What the running scenario released (egress doors, lockers, keys), device by device' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const caller = callerOf(request);
    if (caller.tenantScope === null || !(await mayReadMuster(caller))) refuse('emergency.notActive');
    return reply.ok(await scenarioReleases(app, caller.tenantScope));
  });

  app.post(EmergencyPath.end, { schema: { tags, summary: 'End the running emergency scenario', body: emergencyEndBody }, config: { permission: EmergencyPerm.end } }, async (request, reply) => {
    const scenario = await endEmergency(app, callerOf(request), request.body.id, request.ip);
    return reply.ok(scenario, scenario.drill ? 'emergency.drillEnded' : 'emergency.ended');
  });

  app.post(EmergencyPath.drill, { schema: { tags, summary: 'Start a drill: the scenario runs as for a quake, marked as a drill' }, config: { permission: EmergencyPerm.drill } }, async (request, reply) => {
    return reply.ok(await startDrill(app, callerOf(request), request.ip), 'emergency.drillStarted');
  });

  app.post(EmergencyPath.rollCall, { schema: { tags, summary: 'Mark a person of the running scenario safe, or take the mark back', body: rollCallBody }, config: { permission: EmergencyPerm.rollCall } }, async (request, reply) => {
    const entry = await markSafe(app, callerOf(request), request.body, request.ip);
    return reply.ok(entry, request.body.safe ? 'emergency.markedSafe' : 'emergency.unmarkedSafe', { name: entry.name });
  });

  app.get(EmergencyPath.list, { schema: { tags, summary: 'The past and running emergencies, newest first', querystring: emergencyListQuery }, config: { permission: EmergencyPerm.view } }, async (request, reply) => {
    return reply.ok(await listEmergencies(app, callerOf(request), request.query.pageNo, request.query.pageSize));
  });

  app.get(EmergencyPath.queryById, { schema: { tags, summary: 'One emergency’s report: start, end, doors, roll call', querystring: emergencyIdQuery }, config: { permission: EmergencyPerm.view } }, async (request, reply) => {
    return reply.ok(await emergencyReport(app, callerOf(request), request.query.id));
  });

  app.get(EmergencyPath.exportXls, { schema: { tags, summary: 'The roll call of one emergency as xlsx', querystring: emergencyIdQuery }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const caller = callerOf(request);
    // the running scenario's muster is on every console; past reports are for the emergency screen's holders
    const running = await currentEmergency(app, caller.tenantScope);
    if (!caller.permissions.has(EmergencyPerm.view) && !(running.active && running.scenario.id === request.query.id)) throw new AppError('forbidden', 'error.forbidden', { code: EmergencyPerm.view });
    const report = await emergencyReport(app, caller, request.query.id);
    const sheet = await rollCallSheet(request.lang, app.settings.timeZone, report);
    await writeOperationLog(app, { operateType: OperationType.export, userId: caller.id, username: caller.username, tenantId: caller.tenantScope, ip: request.ip, content: { key: report.scenario.drill ? 'log.drillExported' : 'log.emergencyExported', params: { count: report.rollCall.length } }, costMs: 0 });
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${report.scenario.drill ? 'drill' : 'emergency'}-roll-call.xlsx"`)
      .send(sheet);
  });

  app.get(EmergencyPath.setting, { schema: { tags, summary: 'The emergency scenario setting: threshold and egress doors' }, config: { permission: EmergencyPerm.view } }, async (request, reply) => {
    const caller = callerOf(request);
    if (caller.tenantScope === null) refuse('crud.notFound');
    return reply.ok(await emergencySetting(app, caller.tenantScope));
  });

  app.put(EmergencyPath.setting, { schema: { tags, summary: 'Save the emergency scenario setting', body: emergencySettingBody }, config: { permission: EmergencyPerm.edit } }, async (request, reply) => {
    // out of the scale is refused with the range, never clamped to it
    if (!thresholdInRange(request.body.threshold)) throw new AppError('badRequest', 'emergency.thresholdRange', { min: EMERGENCY_INTENSITY_MIN, max: EMERGENCY_INTENSITY_MAX });
    return reply.ok(await saveEmergencySetting(app, callerOf(request), request.body, request.ip), 'emergency.saved');
  });
};
