import { alarmEntity, patrolTaskEntity, permissionCode, RealtimeCmd, type PatrolMissedNotice } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { hasCheckIns, recordCheckIns } from './check-ins.ts';
import { raiseMissedPoints, type MissedPoint } from './missed.ts';
import { siteDayOf } from './patrol-days.ts';
import { generatePatrolTasks } from './patrol-tasks.ts';

/** What one sweep did: the tasks it made and the points it found missed. */
export interface PatrolSweep {
  created: string[];
  missed: MissedPoint[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** makes today's tasks and judges missed points now (the sweep runs it on its own; tests call it after moving the clock) */
    sweepPatrol(): Promise<PatrolSweep>;
  }
}

/** Who is told of check-ins and missed points: the holders of the task list (and of the alarm list, for alarms). */
const TASK_READERS = [permissionCode(patrolTaskEntity, 'list')];
const ALARM_READERS = [...TASK_READERS, permissionCode(alarmEntity, 'list')];

export interface PatrolOptions {
  /** how often tasks are made and missed points looked for (ms) */
  sweepMs?: number;
}

async function tellMissed(app: FastifyInstance, missed: readonly MissedPoint[]): Promise<void> {
  for (const item of missed) {
    if (item.tenantId === null) continue;
    const row = await app.db
      .selectFrom('sys_patrol_quest as q')
      .innerJoin('sys_patrol_task as t', 't.id', 'q.task_id')
      .innerJoin('sys_patrol_route as r', 'r.id', 't.route_id')
      .innerJoin('sys_device as d', 'd.id', 'q.device_id')
      .select(['r.route_name', 'q.place_name', 'd.device_name', 'q.expected_time'])
      .where('q.id', '=', item.questId)
      .executeTakeFirst();
    if (!row) continue;
    const data: PatrolMissedNotice = { questId: item.questId, taskId: item.taskId, routeName: row.route_name, placeName: row.place_name, deviceName: row.device_name, expectedTime: formatWireTime(row.expected_time, app.settings.timeZone), alarmId: item.alarmId };
    const userIds = await tenantUsersHolding(app.db, item.tenantId, ALARM_READERS);
    await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.patrolMissed, msgId: item.questId, data });
    await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.patrolState, msgId: item.taskId });
  }
}

/**
 * Patrol's device side, started with the app after the device gateway: what patrol devices' check-ins mean, the
 * consoles told of them, and the sweep that makes each day's tasks and raises one alarm per missed point.
 */
export const patrolPlugin = fp<PatrolOptions>(
  async (app, options) => {
    let sweeping: Promise<PatrolSweep> | null = null;
    const sweep = (): Promise<PatrolSweep> => {
      sweeping ??= (async () => {
        try {
          const now = app.clock();
          const created = await generatePatrolTasks(app.db, siteDayOf(now, app.settings.timeZone), now, { timeZone: app.settings.timeZone });
          const missed = await raiseMissedPoints(app.db, now);
          await tellMissed(app, missed);
          return { created, missed };
        } finally {
          sweeping = null;
        }
      })();
      return sweeping;
    };
    app.decorate('sweepPatrol', sweep);
    app.deviceGateway.observe({
      store: async (db, device, events) => void (await recordCheckIns(db, device, events, app.settings.timeZone)),
      events: async (device, events) => {
        if (!hasCheckIns(events) || device.tenantId === null) return;
        const userIds = await tenantUsersHolding(app.db, device.tenantId, TASK_READERS);
        await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.patrolState, msgId: device.id });
      },
    });
    let sweeper: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      sweeper = setInterval(() => void sweep().catch((error: unknown) => app.log.error({ err: error }, 'patrol sweep failed')), options.sweepMs ?? 30_000);
      sweeper.unref();
    });
    app.addHook('preClose', async () => {
      if (sweeper) clearInterval(sweeper);
    });
  },
  { name: 'patrol', dependencies: ['device-gateway'] },
);
