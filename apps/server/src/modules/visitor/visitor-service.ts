import { randomUUID } from 'node:crypto';
import { IdType, VisitorStatus, isValidIdNumber, visitorIdRefusal, type VisitorCategory, type VisitorInfo, type VisitorLoginBody, type VisitorRegisterBody } from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysVisitor } from '../../db/schema.ts';
import { refuse } from '../../platform/envelope.ts';
import { failureLock } from '../../platform/failure-lock.ts';

/** SPEC section 5: people (and so visitor) passwords are 6 to 8 digits, the form door keypads accept. */
const VISITOR_PASSWORD = /^\d{6,8}$/;

function maskIdCard(idCard: string): string {
  return `${'*'.repeat(Math.max(0, idCard.length - 4))}${idCard.slice(-4)}`;
}

export async function toVisitorInfo(app: FastifyInstance, visitor: Selectable<SysVisitor>): Promise<VisitorInfo> {
  const linked = visitor.user_id
    ? await app.db.selectFrom('sys_user').select('username').where('id', '=', visitor.user_id).where('del_flag', '=', 0).executeTakeFirst()
    : undefined;
  return {
    id: visitor.id,
    name: visitor.name,
    idCardMasked: maskIdCard(visitor.id_card),
    phone: visitor.phone,
    category: visitor.category as VisitorCategory,
    status: Number(visitor.status),
    linkedUsername: linked?.username ?? null,
  };
}

export async function findVisitor(app: FastifyInstance, id: string) {
  return app.db.selectFrom('sys_visitor').selectAll().where('id', '=', id).where('del_flag', '=', 0).executeTakeFirst();
}

export async function registerVisitor(app: FastifyInstance, body: VisitorRegisterBody): Promise<VisitorInfo> {
  const idCard = body.idCard.trim().toUpperCase();
  const idType = body.idType ?? IdType.resident;
  if (!isValidIdNumber(idType, idCard)) refuse(visitorIdRefusal(idType));
  if (!VISITOR_PASSWORD.test(body.password)) refuse('visitor.passwordDigits');
  if (body.password !== body.confirmPassword) refuse('password.mismatch');
  const active = app.db.selectFrom('sys_visitor').select('id').where('del_flag', '=', 0);
  if (await active.where('phone', '=', body.phone.trim()).executeTakeFirst()) refuse('duplicate.phone');
  if (await active.where('id_card', '=', idCard).executeTakeFirst()) refuse('duplicate.idCard');
  const now = new Date(app.clock()).toISOString();
  const row = {
    id: randomUUID(),
    name: body.name.trim(),
    id_card: idCard,
    id_type: idType,
    phone: body.phone.trim(),
    password: await app.hasher.hash(body.password),
    category: body.category,
    user_id: null,
    status: VisitorStatus.normal,
    del_flag: 0,
    tenant_id: null,
    // a self-registered visitor has no card, group or palm until the desk gives them
    card_no: null,
    card_no_masked: null,
    user_no: null,
    sex: null,
    depart_id: null,
    picture: null,
    palm_left: 0,
    palm_right: 0,
    create_by: 'visitor',
    create_time: now,
    update_by: null,
    update_time: null,
  };
  await app.db.insertInto('sys_visitor').values(row).execute();
  return toVisitorInfo(app, row);
}

// the account as typed (phone or ID card number, case-blind): counting per typed name reveals nothing about which exist
const passwordLock = failureLock('visitor:login');

async function recordFailure(app: FastifyInstance, account: string): Promise<never> {
  await passwordLock.recordFailure(app, account.toUpperCase());
  refuse('visitor.wrongCredentials');
}

/** Phone number or ID card number, and the visitor's own password; staff accounts are never consulted. */
export async function authenticateVisitor(app: FastifyInstance, body: VisitorLoginBody): Promise<Selectable<SysVisitor>> {
  const account = body.account.trim();
  await passwordLock.refuseIfLocked(app, account.toUpperCase());
  const visitor = await app.db
    .selectFrom('sys_visitor')
    .selectAll()
    .where('del_flag', '=', 0)
    .where((eb) => eb.or([eb('phone', '=', account), eb('id_card', '=', account.toUpperCase())]))
    .executeTakeFirst();
  const ok = visitor ? await app.hasher.verify(visitor.password, body.password) : await app.hasher.verifyNobody(body.password);
  if (!visitor || !ok) return recordFailure(app, account);
  await passwordLock.clear(app, account.toUpperCase());
  if (Number(visitor.status) !== VisitorStatus.normal) refuse('visitor.frozen');
  return visitor;
}

/**
 * One line of the API login list: each visitor sign-in, let in (`visitor`) or refused (null). The account typed is kept
 * by its last four characters only. A sign-in from the visitor area's page carries the browser's Origin header; one
 * without it is a program calling the API.
 */
export async function recordVisitorLogin(app: FastifyInstance, request: FastifyRequest, account: string, visitor: Selectable<SysVisitor> | null): Promise<void> {
  const method = request.headers.origin ? 'login' : 'api';
  const typed = account.trim();
  // a refused sign-in of a known account is the visitor's (and his tenant's) too
  const named =
    visitor ??
    (await app.db
      .selectFrom('sys_visitor')
      .select(['id', 'name', 'tenant_id'])
      .where('del_flag', '=', 0)
      .where((eb) => eb.or([eb('phone', '=', typed), eb('id_card', '=', typed.toUpperCase())]))
      .executeTakeFirst()) ??
    null;
  await app.db
    .insertInto('sys_visitor_login')
    .values({
      id: randomUUID(),
      create_by: 'visitor',
      create_time: new Date(app.clock()).toISOString(),
      update_by: null,
      update_time: null,
      visitor_id: named?.id ?? null,
      visitor_name: named?.name ?? null,
      account_masked: maskIdCard(typed.slice(0, 64)),
      ip: request.ip.slice(0, 64),
      method,
      result: visitor ? 1 : 0,
      tenant_id: named?.tenant_id ?? null,
    })
    .execute();
}
