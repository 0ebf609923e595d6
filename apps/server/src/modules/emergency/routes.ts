import { EmergencyPath, EmergencyPerm, emergencyEndBody, emergencySettingBody } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { refuse } from '../../platform/envelope.ts';
import { currentEmergency, emergencySetting, endEmergency, evaluateQuakeReadings, musterList, saveEmergencySetting } from './service.ts';

const tags = ['emergency'];

/**
 * The emergency (quake) scenario: quake readings are evaluated as the device link receives them; every signed-in
 * user reads the running scenario and, while it runs, the muster list (the alarm is on every console); the setting
 * and the end of a scenario need their permissions.
 */
export const emergencyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.deviceGateway.observe({ events: (device, events) => evaluateQuakeReadings(app, device, events) });

  app.get(EmergencyPath.current, { schema: { tags, summary: 'The emergency scenario running for the caller’s tenant' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    return reply.ok(await currentEmergency(app, callerOf(request).tenantScope));
  });

  app.get(EmergencyPath.muster, { schema: { tags, summary: 'Who is inside, per area, from the last access event of each person' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const caller = callerOf(request);
    if (caller.tenantScope === null) refuse('emergency.notActive');
    // outside a scenario only the holders of the emergency screen read who is inside
    if (!caller.permissions.has(EmergencyPerm.view) && !(await currentEmergency(app, caller.tenantScope)).active) refuse('emergency.notActive');
    return reply.ok(await musterList(app, caller.tenantScope));
  });

  app.post(EmergencyPath.end, { schema: { tags, summary: 'End the running emergency scenario', body: emergencyEndBody }, config: { permission: EmergencyPerm.end } }, async (request, reply) => {
    return reply.ok(await endEmergency(app, callerOf(request), request.body.id, request.ip), 'emergency.ended');
  });

  app.get(EmergencyPath.setting, { schema: { tags, summary: 'The emergency scenario setting: threshold and egress doors' }, config: { permission: EmergencyPerm.view } }, async (request, reply) => {
    const caller = callerOf(request);
    if (caller.tenantScope === null) refuse('crud.notFound');
    return reply.ok(await emergencySetting(app, caller.tenantScope));
  });

  app.put(EmergencyPath.setting, { schema: { tags, summary: 'Save the emergency scenario setting', body: emergencySettingBody }, config: { permission: EmergencyPerm.edit } }, async (request, reply) => {
    return reply.ok(await saveEmergencySetting(app, callerOf(request), request.body, request.ip), 'emergency.saved');
  });
};
