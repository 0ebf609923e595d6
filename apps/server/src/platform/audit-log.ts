import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** sys_log.log_type 1 is the login log; operate_type tells a login from a logout. */
export const LoginLog = { logType: 1, login: 1, logout: 2 } as const;

export async function writeLoginLog(
  app: FastifyInstance,
  entry: { operateType: number; userId: string; username: string; ip: string; content: string; costMs: number },
): Promise<void> {
  await app.db
    .insertInto('sys_log')
    .values({
      id: randomUUID(),
      log_type: LoginLog.logType,
      operate_type: entry.operateType,
      content: entry.content,
      userid: entry.userId,
      username: entry.username,
      ip: entry.ip,
      cost_time: Math.max(0, Math.round(entry.costMs)),
      create_by: entry.username,
      create_time: new Date(app.clock()).toISOString(),
      update_by: null,
      update_time: null,
    })
    .execute();
}

/** sys_log.log_type 2 is the operation log; operate_type says what was done (the origin console's numbers). */
export const OperationType = { query: 1, add: 2, edit: 3, delete: 4, import: 5, export: 6 } as const;

export async function writeOperationLog(
  app: FastifyInstance,
  entry: { operateType: number; userId: string; username: string; ip: string; content: string; costMs: number },
): Promise<void> {
  await app.db
    .insertInto('sys_log')
    .values({
      id: randomUUID(),
      log_type: 2,
      operate_type: entry.operateType,
      content: entry.content.slice(0, 1000),
      userid: entry.userId,
      username: entry.username,
      ip: entry.ip,
      cost_time: Math.max(0, Math.round(entry.costMs)),
      create_by: entry.username,
      create_time: new Date(app.clock()).toISOString(),
      update_by: null,
      update_time: null,
    })
    .execute();
}
