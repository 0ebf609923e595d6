import { randomUUID } from 'node:crypto';
import {
  MessageSendStatus,
  renderTemplate,
  translate,
  type Language,
  type Page,
  type SendMsgBody,
  type SysMessage,
  type SysMessageTemplate,
  type messageEditInput,
  type messageInput,
  type messageListQuery,
  type templateEditInput,
  type templateInput,
  type templateListQuery,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import * as z from 'zod';
import type { CurrentUser } from '../../platform/access.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import type { SysMessage as MessageRow, SysMessageTemplate as TemplateRow } from '../../db/schema.ts';
import { deliverSystemMessage } from './announcement-service.ts';
import { contains, pageOf } from './list-helpers.ts';
import { sendMail } from './mailer.ts';
import { sanitizeRichText, textToHtml } from './sanitize.ts';

function nowIso(app: FastifyInstance): string {
  return new Date(app.clock()).toISOString();
}

function toMessage(row: Selectable<MessageRow>): SysMessage {
  return {
    id: row.id,
    esTitle: row.es_title,
    esContent: row.es_content,
    esParam: row.es_param,
    esReceiver: row.es_receiver,
    esType: row.es_type as SysMessage['esType'],
    esSendStatus: row.es_send_status as SysMessage['esSendStatus'],
    esSendNum: Number(row.es_send_num),
    esResult: row.es_result,
    esSendTime: row.es_send_time,
    remark: row.remark,
    createBy: row.create_by,
    createTime: row.create_time,
  };
}

function toTemplate(row: Selectable<TemplateRow>): SysMessageTemplate {
  return {
    id: row.id,
    templateCode: row.template_code,
    templateName: row.template_name,
    templateContent: row.template_content,
    templateType: row.template_type as SysMessageTemplate['templateType'],
    templateTestJson: row.template_test_json,
    createBy: row.create_by,
    createTime: row.create_time,
  };
}

export async function listMessages(app: FastifyInstance, caller: CurrentUser, query: z.infer<typeof messageListQuery>): Promise<Page<SysMessage>> {
  let base = tenantScoped(app.db.selectFrom('sys_message'), caller);
  if (query.esTitle) base = base.where(contains('es_title', query.esTitle));
  if (query.esReceiver) base = base.where(contains('es_receiver', query.esReceiver));
  if (query.esType) base = base.where('es_type', '=', query.esType);
  if (query.esSendStatus) base = base.where('es_send_status', '=', query.esSendStatus);
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const rows = await base.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize).execute();
  return pageOf(rows.map(toMessage), total, query.pageNo, query.pageSize);
}

export async function findMessage(app: FastifyInstance, caller: CurrentUser, id: string): Promise<SysMessage> {
  const row = await tenantScoped(app.db.selectFrom('sys_message'), caller).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) refuse('crud.notFound');
  return toMessage(row);
}

export async function addMessage(app: FastifyInstance, caller: CurrentUser, input: z.infer<typeof messageInput>): Promise<SysMessage> {
  const id = randomUUID();
  await app.db
    .insertInto('sys_message')
    .values({
      id,
      es_title: input.esTitle,
      es_content: input.esContent ?? null,
      es_param: input.esParam || null,
      es_receiver: input.esReceiver,
      es_type: input.esType,
      es_send_status: input.esSendStatus ?? MessageSendStatus.pending,
      es_send_num: 0,
      es_result: null,
      es_send_time: null,
      remark: input.remark ?? null,
      tenant_id: writeTenant(caller),
      create_by: caller.username,
      create_time: nowIso(app),
      update_by: null,
      update_time: null,
    })
    .execute();
  return findMessage(app, caller, id);
}

export async function editMessage(app: FastifyInstance, caller: CurrentUser, input: z.infer<typeof messageEditInput>): Promise<SysMessage> {
  await findMessage(app, caller, input.id);
  await tenantScoped(app.db.updateTable('sys_message'), caller)
    .set({
      ...(input.esTitle !== undefined ? { es_title: input.esTitle } : {}),
      ...(input.esContent !== undefined ? { es_content: input.esContent ?? null } : {}),
      ...(input.esParam !== undefined ? { es_param: input.esParam || null } : {}),
      ...(input.esReceiver !== undefined ? { es_receiver: input.esReceiver } : {}),
      ...(input.esType !== undefined ? { es_type: input.esType } : {}),
      ...(input.esSendStatus !== undefined ? { es_send_status: input.esSendStatus } : {}),
      ...(input.remark !== undefined ? { remark: input.remark ?? null } : {}),
      update_by: caller.username,
      update_time: nowIso(app),
    })
    .where('id', '=', input.id)
    .execute();
  return findMessage(app, caller, input.id);
}

export async function deleteMessages(app: FastifyInstance, caller: CurrentUser, ids: string[]): Promise<void> {
  const result = await tenantScoped(app.db.deleteFrom('sys_message'), caller).where('id', 'in', ids).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) refuse('crud.notFound');
}

export async function listTemplates(app: FastifyInstance, caller: CurrentUser, query: z.infer<typeof templateListQuery>): Promise<Page<SysMessageTemplate>> {
  let base = tenantScoped(app.db.selectFrom('sys_message_template'), caller);
  if (query.templateCode) base = base.where(contains('template_code', query.templateCode));
  if (query.templateName) base = base.where(contains('template_name', query.templateName));
  if (query.templateType) base = base.where('template_type', '=', query.templateType);
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const rows = await base.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize).execute();
  return pageOf(rows.map(toTemplate), total, query.pageNo, query.pageSize);
}

export async function findTemplate(app: FastifyInstance, caller: CurrentUser, id: string): Promise<SysMessageTemplate> {
  const row = await tenantScoped(app.db.selectFrom('sys_message_template'), caller).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) refuse('crud.notFound');
  return toTemplate(row);
}

/** Template codes are unique across tenants (the database holds one of each). */
async function refuseDuplicateCode(app: FastifyInstance, code: string, exceptId: string | null): Promise<void> {
  let query = app.db.selectFrom('sys_message_template').select('id').where('template_code', '=', code);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) refuse('duplicate.templateCode');
}

export async function addTemplate(app: FastifyInstance, caller: CurrentUser, input: z.infer<typeof templateInput>): Promise<SysMessageTemplate> {
  await refuseDuplicateCode(app, input.templateCode, null);
  const id = randomUUID();
  await app.db
    .insertInto('sys_message_template')
    .values({
      id,
      template_code: input.templateCode,
      template_name: input.templateName,
      template_content: input.templateContent,
      template_type: input.templateType,
      template_test_json: input.templateTestJson || null,
      tenant_id: writeTenant(caller),
      create_by: caller.username,
      create_time: nowIso(app),
      update_by: null,
      update_time: null,
    })
    .execute();
  return findTemplate(app, caller, id);
}

export async function editTemplate(app: FastifyInstance, caller: CurrentUser, input: z.infer<typeof templateEditInput>): Promise<SysMessageTemplate> {
  await findTemplate(app, caller, input.id);
  if (input.templateCode !== undefined) await refuseDuplicateCode(app, input.templateCode, input.id);
  await tenantScoped(app.db.updateTable('sys_message_template'), caller)
    .set({
      ...(input.templateCode !== undefined ? { template_code: input.templateCode } : {}),
      ...(input.templateName !== undefined ? { template_name: input.templateName } : {}),
      ...(input.templateContent !== undefined ? { template_content: input.templateContent } : {}),
      ...(input.templateType !== undefined ? { template_type: input.templateType } : {}),
      ...(input.templateTestJson !== undefined ? { template_test_json: input.templateTestJson || null } : {}),
      update_by: caller.username,
      update_time: nowIso(app),
    })
    .where('id', '=', input.id)
    .execute();
  return findTemplate(app, caller, input.id);
}

export async function deleteTemplates(app: FastifyInstance, caller: CurrentUser, ids: string[]): Promise<void> {
  const result = await tenantScoped(app.db.deleteFrom('sys_message_template'), caller).where('id', 'in', ids).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) refuse('crud.notFound');
}

/** A send that could not be done; its reason is recorded on the message row. */
class DeliveryFailure extends Error {}

function paramsOf(testData: SendMsgBody['testData']): Record<string, unknown> {
  if (testData === undefined || testData === null || testData === '') return {};
  if (typeof testData === 'object') return testData;
  return JSON.parse(testData) as Record<string, unknown>;
}

async function deliverInApp(app: FastifyInstance, lang: Language, caller: CurrentUser, receiver: string, title: string, html: string, messageId: string) {
  // only a user of the tenant worked in receives it
  const user = await tenantScoped(app.db.selectFrom('sys_user'), caller)
    .select('id')
    .where((eb) => eb.or([eb('username', '=', receiver), eb('id', '=', receiver)]))
    .where('del_flag', '=', 0)
    .where('status', '=', 1)
    .executeTakeFirst();
  if (!user) throw new DeliveryFailure(translate(lang, 'message.unknownReceiver', { receiver }));
  await deliverSystemMessage(app, caller.username, writeTenant(caller), user.id, title, html, messageId);
}

async function deliverEmail(app: FastifyInstance, lang: Language, receiver: string, title: string, content: string, html: boolean) {
  if (!app.settings.smtp.url) throw new DeliveryFailure(translate(lang, 'message.smtpNotConfigured'));
  if (!z.email().safeParse(receiver).success) throw new DeliveryFailure(translate(lang, 'message.invalidEmail', { receiver }));
  try {
    await sendMail(app.settings.smtp, html ? { to: receiver, subject: title, html: sanitizeRichText(content) ?? '' } : { to: receiver, subject: title, text: content });
  } catch (error) {
    throw new DeliveryFailure((error as Error).message || 'SMTP error');
  }
}

/**
 * sendMsg: renders a template and sends it through a real channel. The outcome, sent or failed with its reason, is
 * recorded on a message row either way; a failed channel is a refusal with that reason, never a 500.
 */
export async function sendTemplateMessage(
  app: FastifyInstance,
  caller: CurrentUser,
  lang: Language,
  body: SendMsgBody,
): Promise<{ message: SysMessage; failure: string | null }> {
  const template = await tenantScoped(app.db.selectFrom('sys_message_template'), caller).selectAll().where('template_code', '=', body.templateCode).executeTakeFirst();
  if (!template) refuse('message.templateNotFound', { code: body.templateCode });
  let params: Record<string, unknown>;
  try {
    params = paramsOf(body.testData);
  } catch {
    throw new AppError('badRequest', 'validation.illegalJson', { field: 'testData' });
  }
  const title = renderTemplate(template.template_name, params);
  const content = renderTemplate(template.template_content, params);
  const isHtml = template.template_type === '2';
  const id = randomUUID();
  await app.db
    .insertInto('sys_message')
    .values({
      id,
      es_title: title.slice(0, 200),
      es_content: content,
      es_param: JSON.stringify(params),
      es_receiver: body.receiver,
      es_type: body.msgType,
      es_send_status: MessageSendStatus.pending,
      es_send_num: 0,
      es_result: null,
      es_send_time: null,
      remark: `template ${template.template_code}`,
      tenant_id: writeTenant(caller),
      create_by: caller.username,
      create_time: nowIso(app),
      update_by: null,
      update_time: null,
    })
    .execute();

  let failure: string | null = null;
  try {
    if (body.msgType === 'system') await deliverInApp(app, lang, caller, body.receiver, title, isHtml ? content : textToHtml(content), id);
    else await deliverEmail(app, lang, body.receiver, title, content, isHtml);
  } catch (error) {
    if (!(error instanceof DeliveryFailure)) app.log.error({ err: error }, 'message delivery failed');
    failure = error instanceof DeliveryFailure ? error.message : 'internal error';
  }
  await tenantScoped(app.db.updateTable('sys_message'), caller)
    .set({
      es_send_status: failure ? MessageSendStatus.failed : MessageSendStatus.sent,
      es_send_num: 1,
      es_result: failure ? failure.slice(0, 500) : null,
      es_send_time: nowIso(app),
      update_by: caller.username,
      update_time: nowIso(app),
    })
    .where('id', '=', id)
    .execute();
  return { message: await findMessage(app, caller, id), failure };
}
