import type { Language, LoginResult } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysUser } from '../../db/schema.ts';
import type { LogText } from '../../platform/audit-log.ts';

/**
 * What this module needs of the staff accounts, handed in by app.ts (the composition root) so that modules do
 * not import each other.
 */
export interface UserDirectory {
  findActiveUserByName(app: FastifyInstance, username: string): Promise<Selectable<SysUser> | undefined>;
  findActiveUserById(app: FastifyInstance, id: string): Promise<Selectable<SysUser> | undefined>;
  createUser(app: FastifyInstance, input: { username: string; realname: string; password: string; roleCodes?: string[]; tenantId?: string | null }, by: string): Promise<string>;
  /** uses up the login captcha (`checkKey`, `captcha` as typed) or refuses; the caller asks only while LOGIN_CAPTCHA is on */
  checkCaptcha(app: FastifyInstance, body: { captcha?: string; checkKey?: string }): Promise<void>;
  /** the same session /sys/login gives */
  startSession(app: FastifyInstance, user: Selectable<SysUser>, ip: string, content: LogText, lang: Language): Promise<LoginResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    userDirectory: UserDirectory;
  }
}

/** sys_user.status of a user who may log in */
export const USER_STATUS_NORMAL = 1;
