import { randomUUID } from 'node:crypto';
import { SelfRegister, type AccountSettings, type LoginSettings, type SelfRegisterValue } from '@isps/contract';
import type { FastifyInstance } from 'fastify';

/** Rows of sys_setting this module reads; a missing row means the default (everything off on a fresh install). */
export const SettingKey = {
  twoFactorForAdmins: 'account.twoFactorForAdmins',
  activationRequired: 'account.activationRequired',
  authorizedUntil: 'account.authorizedUntil',
} as const;
type SettingKeyValue = (typeof SettingKey)[keyof typeof SettingKey];

export async function readSetting(app: FastifyInstance, key: SettingKeyValue): Promise<string | null> {
  const row = await app.db.selectFrom('sys_setting').select('setting_value').where('setting_key', '=', key).executeTakeFirst();
  return row?.setting_value ?? null;
}

export async function writeSetting(app: FastifyInstance, key: SettingKeyValue, value: string | null, by: string): Promise<void> {
  const now = new Date(app.clock()).toISOString();
  const updated = await app.db
    .updateTable('sys_setting')
    .set({ setting_value: value, update_by: by, update_time: now })
    .where('setting_key', '=', key)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await app.db
    .insertInto('sys_setting')
    .values({ id: randomUUID(), setting_key: key, setting_value: value, create_by: by, create_time: now, update_by: null, update_time: null })
    .execute();
}

export async function readAccountSettings(app: FastifyInstance): Promise<AccountSettings> {
  return {
    twoFactorForAdmins: (await readSetting(app, SettingKey.twoFactorForAdmins)) === '1',
    activationRequired: (await readSetting(app, SettingKey.activationRequired)) === '1',
  };
}

/** The tenant a login page is for and its self-registration: the one named by `code`, else the installation's first. */
export async function registrationOf(app: FastifyInstance, code: string | undefined): Promise<{ tenantId: string | null; mode: SelfRegisterValue }> {
  let query = app.db.selectFrom('sys_tenant').select(['id', 'self_register', 'status']);
  query = code ? query.where('code', '=', code) : query.orderBy('create_time').orderBy('id');
  const tenant = await query.executeTakeFirst();
  // a frozen tenant takes no one in
  if (!tenant || Number(tenant.status) !== 1) return { tenantId: null, mode: SelfRegister.off };
  const mode = Number(tenant.self_register);
  return { tenantId: tenant.id, mode: mode === SelfRegister.open || mode === SelfRegister.approval ? mode : SelfRegister.off };
}

const REGISTRATION_NAMES = { [SelfRegister.off]: 'off', [SelfRegister.open]: 'open', [SelfRegister.approval]: 'approval' } as const;

/** What the public login page offers: the captcha as configured, the tenant's self-registration. */
export async function loginSettings(app: FastifyInstance, tenantCode: string | undefined): Promise<LoginSettings> {
  const { mode } = await registrationOf(app, tenantCode);
  return { captcha: app.settings.loginCaptcha, registration: REGISTRATION_NAMES[mode] };
}
