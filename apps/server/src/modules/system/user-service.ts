import { randomUUID } from 'node:crypto';
import { LANGUAGES, UserStatus, shownSeededText, type Depart, type Language, type TenantSummary, type UserInfo } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { refuse } from '../../platform/envelope.ts';
import type { SysUser } from '../../db/schema.ts';
import { ADMIN_USERNAME } from '../../db/seed/index.ts';

export { UserStatus };

/** The user as his own console knows him; a seeded real name in the reader's language. */
export function toUserInfo(user: Selectable<SysUser>, lang: Language): UserInfo {
  return {
    id: user.id,
    username: user.username,
    realname: String(shownSeededText(lang, 'user', 'realname', user)),
    nickname: user.nickname,
    orgCode: user.org_code,
    avatar: user.avatar,
    birthday: user.birthday,
    phone: user.phone,
    email: user.email,
    sex: user.sex === null ? null : Number(user.sex),
    workNo: user.work_no,
    status: Number(user.status),
    mustChangePassword: Number(user.must_change_password) === 1,
    lang: (LANGUAGES as readonly string[]).includes(user.lang ?? '') ? (user.lang as Language) : null,
  };
}

/** Keeps the console language the user chose with the user, for their next sign-in on any browser. */
export async function saveUserLanguage(app: FastifyInstance, userId: string, lang: Language): Promise<void> {
  await app.db.updateTable('sys_user').set({ lang }).where('id', '=', userId).execute();
}

export async function findActiveUserByName(app: FastifyInstance, username: string) {
  return app.db.selectFrom('sys_user').selectAll().where('username', '=', username).where('del_flag', '=', 0).executeTakeFirst();
}

export async function findActiveUserById(app: FastifyInstance, id: string) {
  return app.db.selectFrom('sys_user').selectAll().where('id', '=', id).where('del_flag', '=', 0).executeTakeFirst();
}

export async function userDeparts(app: FastifyInstance, userId: string): Promise<Depart[]> {
  const rows = await app.db
    .selectFrom('sys_user_depart as ud')
    .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
    .select(['d.id', 'd.org_code', 'd.depart_name', 'd.parent_id'])
    .where('ud.user_id', '=', userId)
    .where('d.del_flag', '=', 0)
    .orderBy('d.depart_order')
    .orderBy('d.org_code')
    .execute();
  return rows.map((r) => ({ id: r.id, orgCode: r.org_code, departName: r.depart_name, parentId: r.parent_id }));
}

export async function userTenants(app: FastifyInstance, user: Selectable<SysUser>): Promise<TenantSummary[]> {
  if (!user.tenant_id) return [];
  const rows = await app.db.selectFrom('sys_tenant').select(['id', 'name']).where('id', '=', user.tenant_id).where('status', '=', 1).execute();
  return rows;
}

export async function setCurrentOrgCode(app: FastifyInstance, userId: string, orgCode: string, by: string): Promise<void> {
  await app.db
    .updateTable('sys_user')
    .set({ org_code: orgCode, update_by: by, update_time: new Date(app.clock()).toISOString() })
    .where('id', '=', userId)
    .execute();
}

export interface NewUser {
  username: string;
  realname: string;
  password: string;
  roleCodes?: string[];
  orgCodes?: string[];
  mustChangePassword?: boolean;
  tenantId?: string | null;
}

/** Creates a user with roles and groups; the admin screens and the test harness both use it. */
export async function createUser(app: FastifyInstance, input: NewUser, by: string): Promise<string> {
  const id = randomUUID();
  const now = new Date(app.clock()).toISOString();
  const audit = { create_by: by, create_time: now, update_by: null, update_time: null };
  const passwordHash = await app.hasher.hash(input.password);
  await app.db.transaction().execute(async (db) => {
    const roles = input.roleCodes?.length
      ? await db.selectFrom('sys_role').select('id').where('role_code', 'in', input.roleCodes).execute()
      : [];
    const departs = input.orgCodes?.length
      ? await db.selectFrom('sys_depart').select(['id', 'org_code']).where('org_code', 'in', input.orgCodes).execute()
      : [];
    await db
      .insertInto('sys_user')
      .values({
        ...audit,
        id,
        username: input.username,
        realname: input.realname,
        nickname: null,
        password: passwordHash,
        avatar: null,
        birthday: null,
        sex: null,
        email: null,
        phone: null,
        org_code: departs[0]?.org_code ?? null,
        status: UserStatus.normal,
        del_flag: 0,
        work_no: null,
        must_change_password: input.mustChangePassword ? 1 : 0,
        tenant_id: input.tenantId ?? null,
      })
      .execute();
    for (const role of roles) await db.insertInto('sys_user_role').values({ ...audit, id: randomUUID(), user_id: id, role_id: role.id }).execute();
    for (const depart of departs) await db.insertInto('sys_user_depart').values({ ...audit, id: randomUUID(), user_id: id, dep_id: depart.id }).execute();
  });
  return id;
}

async function guardNotAdmin(app: FastifyInstance, userId: string): Promise<void> {
  const user = await app.db.selectFrom('sys_user').select('username').where('id', '=', userId).executeTakeFirst();
  if (user?.username === ADMIN_USERNAME) refuse('error.adminProtected');
}

/** Freezing (status 2) or thawing (status 1); a frozen user loses every session at once. */
export async function setUserStatus(app: FastifyInstance, userId: string, status: 1 | 2, by: string): Promise<void> {
  await guardNotAdmin(app, userId);
  await app.db.updateTable('sys_user').set({ status, update_by: by, update_time: new Date(app.clock()).toISOString() }).where('id', '=', userId).execute();
  if (status === UserStatus.frozen) await app.tokens.revokeAllOf(userId);
}

/** Soft delete into the recycle bin; the user's sessions end with it. */
export async function deleteUser(app: FastifyInstance, userId: string, by: string): Promise<void> {
  await guardNotAdmin(app, userId);
  await app.db.updateTable('sys_user').set({ del_flag: 1, update_by: by, update_time: new Date(app.clock()).toISOString() }).where('id', '=', userId).execute();
  await app.tokens.revokeAllOf(userId);
}
