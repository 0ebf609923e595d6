import { randomUUID } from 'node:crypto';
import { LogOperateType, LogType } from '@isps/contract';
import type { FastifyInstance } from 'fastify';

/** Operation types of the operation log (the contract's numbers). */
export const OperationType = {
  query: LogOperateType.query,
  add: LogOperateType.add,
  edit: LogOperateType.edit,
  delete: LogOperateType.delete,
  import: LogOperateType.import,
  export: LogOperateType.export,
} as const;

export interface LogEntry {
  operateType: number;
  userId: string;
  username: string;
  /** the acting user's tenant; null for a user without one, whose entries only system administrators read */
  tenantId: string | null;
  ip: string;
  content: string;
  /** measured cost in milliseconds (SPEC section 9) */
  costMs: number;
}

async function writeLog(app: FastifyInstance, logType: number, entry: LogEntry): Promise<void> {
  await app.db
    .insertInto('sys_log')
    .values({
      id: randomUUID(),
      log_type: logType,
      operate_type: entry.operateType,
      content: entry.content.slice(0, 1000),
      userid: entry.userId,
      username: entry.username,
      ip: entry.ip,
      cost_time: Math.max(0, Math.round(entry.costMs)),
      tenant_id: entry.tenantId,
      create_by: entry.username,
      create_time: new Date(app.clock()).toISOString(),
      update_by: null,
      update_time: null,
    })
    .execute();
}

/** A sign-in or sign-out (`LogOperateType.login` / `logout`) in the login log. */
export function writeLoginLog(app: FastifyInstance, entry: LogEntry): Promise<void> {
  return writeLog(app, LogType.login, entry);
}

/** A change, export or import in the operation log. */
export function writeOperationLog(app: FastifyInstance, entry: LogEntry): Promise<void> {
  return writeLog(app, LogType.operation, entry);
}
