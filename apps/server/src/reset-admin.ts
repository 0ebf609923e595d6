// `npm run reset-admin`: gives `admin` a new one-time password when the one in use is lost. It works on the
// database of the environment it runs in (DATA_DIR, DATABASE_URL), with or without the server running.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { LogOperateType, LogType } from '@isps/contract';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { ADMIN_USERNAME, generateAdminPassword } from './db/seed/index.ts';
import { consoleAddress, loginBanner, rememberInitialPassword } from './initial-password.ts';
import { storedLogText } from './platform/audit-log.ts';
import { PasswordHasher } from './platform/passwords.ts';

/** Who the operation log names as the actor: the machine account that ran the command. */
const RESET_BY = 'system';

const NOT_SET_UP = 'there is no admin account yet: start the console once (npm start) to create it';

async function resetAdmin(config: Config): Promise<string> {
  // a mistyped DATA_DIR must not leave an empty database behind
  if (config.dialect === 'sqlite' && !existsSync(config.databaseUrl)) throw new Error(`${NOT_SET_UP} (no database at ${config.databaseUrl})`);
  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db, database.dialect);
    const admin = await database.db.selectFrom('sys_user').select(['id', 'tenant_id']).where('username', '=', ADMIN_USERNAME).executeTakeFirst();
    if (!admin) throw new Error(NOT_SET_UP);
    const password = generateAdminPassword();
    const hash = await new PasswordHasher(config.passwordHashing).hash(password);
    const now = new Date().toISOString();
    await database.db.transaction().execute(async (trx) => {
      // a frozen or deleted admin would still be locked out with a new password
      await trx
        .updateTable('sys_user')
        .set({ password: hash, must_change_password: 1, status: 1, del_flag: 0, update_by: RESET_BY, update_time: now })
        .where('id', '=', admin.id)
        .execute();
      // whoever held a session of the old password loses it
      await trx.deleteFrom('sys_user_token').where('user_id', '=', admin.id).execute();
      await trx
        .insertInto('sys_log')
        .values({
          id: randomUUID(),
          log_type: LogType.operation,
          operate_type: LogOperateType.edit,
          ...storedLogText({ key: 'log.adminPasswordReset', params: { username: ADMIN_USERNAME } }),
          userid: null,
          username: RESET_BY,
          ip: '127.0.0.1',
          cost_time: 0,
          tenant_id: admin.tenant_id ?? null,
          create_by: RESET_BY,
          create_time: now,
          update_by: null,
          update_time: null,
        })
        .execute();
    });
    rememberInitialPassword(config.dataDir, password);
    return password;
  } finally {
    await database.destroy();
  }
}

try {
  const config = loadConfig(process.env);
  const password = await resetAdmin(config);
  process.stdout.write(loginBanner({ url: consoleAddress(config), password, heading: 'The admin password is reset.' }));
} catch (error) {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`Cannot reset the admin password: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
