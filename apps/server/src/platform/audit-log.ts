import { randomUUID } from 'node:crypto';
import { LogOperateType, LogType, entityLabel, serverMessages, translate, type Language, type MessageKey } from '@isps/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CurrentUser } from './access.ts';

/** Operation types of the operation log (the contract's numbers). */
export const OperationType = {
  query: LogOperateType.query,
  add: LogOperateType.add,
  edit: LogOperateType.edit,
  delete: LogOperateType.delete,
  import: LogOperateType.import,
  export: LogOperateType.export,
} as const;

/**
 * What an entry says: a message key with its parameters, rendered for each reader. A parameter named `entity` holds
 * a screen's title key and is shown translated too. A plain string is stored and shown as it is.
 */
export type LogText = { key: MessageKey; params?: Record<string, string | number> } | string;

export interface LogEntry {
  operateType: number;
  userId: string;
  username: string;
  /** the acting user's tenant; null for a user without one, whose entries only system administrators read */
  tenantId: string | null;
  ip: string;
  content: LogText;
  /** measured cost in milliseconds (SPEC section 9) */
  costMs: number;
}

function rendered(lang: Language, text: { key: MessageKey; params?: Record<string, string | number> }): string {
  const params = { ...text.params };
  if (typeof params.entity === 'string') params.entity = entityLabel(lang, params.entity);
  return translate(lang, text.key, params);
}

/** The text of a stored entry in `lang`: its message rendered, or its content as stored (plain-text entries). */
export function logContentIn(lang: Language, row: { content: string; log_params?: string | null }): string {
  if (!row.log_params) return row.content;
  try {
    const text = JSON.parse(row.log_params) as { key: MessageKey; params?: Record<string, string | number> };
    return Object.hasOwn(serverMessages[lang], text.key) ? rendered(lang, text) : row.content;
  } catch {
    return row.content;
  }
}

/** The columns an entry's text is stored in: its message key and parameters, and the English text. */
export function storedLogText(text: LogText): { content: string; log_params: string | null } {
  return {
    // the English text stays searchable and readable by any client that does not render the message
    content: (typeof text === 'string' ? text : rendered('en-US', text)).slice(0, 1000),
    log_params: typeof text === 'string' ? null : JSON.stringify({ key: text.key, params: text.params ?? {} }),
  };
}

async function writeLog(app: FastifyInstance, logType: number, entry: LogEntry): Promise<void> {
  await app.db
    .insertInto('sys_log')
    .values({
      id: randomUUID(),
      log_type: logType,
      operate_type: entry.operateType,
      ...storedLogText(entry.content),
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

/**
 * An operator's action in the operation log, from the route that answers it: the caller as operator, the tenant he
 * works in, the target named in the entry's text (a device, code, package or alarm), his address and the time taken.
 */
export function writeCallerLog(reply: FastifyReply, caller: CurrentUser, content: LogText, operateType: number = OperationType.edit): Promise<void> {
  const { request } = reply;
  return writeOperationLog(request.server, { operateType, userId: caller.id, username: caller.username, tenantId: caller.tenantScope ?? caller.tenantId, ip: request.ip, content, costMs: reply.elapsedTime });
}
