import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import { ADMIN_USERNAME } from './db/seed/index.ts';
import type { Database } from './db/schema.ts';
import type { PasswordHasher } from './platform/passwords.ts';

/**
 * A generated one-time password of `admin` waits in DATA_DIR (readable by the server's user only, like the other
 * secrets there) until it is replaced, so every start can print it again; the first real login then forgets it.
 */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

export function rememberInitialPassword(dataDir: string, password: string): void {
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** `admin` has a password of his own now: the one-time password is kept no longer (called by every path that sets it). */
export function forgetInitialPassword(dataDir: string, username: string): void {
  if (username === ADMIN_USERNAME) rmSync(join(dataDir, INITIAL_PASSWORD_FILE), { force: true });
}

/** The remembered password while `admin` still has it and must change it; otherwise the file is removed and null. */
export async function pendingInitialPassword(db: Kysely<Database>, hasher: PasswordHasher, dataDir: string): Promise<string | null> {
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  if (!existsSync(file)) return null;
  const password = readFileSync(file, 'utf8').trim();
  const admin = await db.selectFrom('sys_user').select(['password', 'must_change_password']).where('username', '=', ADMIN_USERNAME).executeTakeFirst();
  if (password && admin && Number(admin.must_change_password) === 1 && (await hasher.verify(admin.password, password))) return password;
  rmSync(file, { force: true });
  return null;
}

/** Where a person opens the console: PUBLIC_URL when set, else the listen address (a wildcard host read as localhost). */
export function consoleAddress(config: Pick<Config, 'host' | 'port' | 'publicUrl'>, port = config.port): string {
  if (config.publicUrl) return `${config.publicUrl}/`;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}

export interface BannerOptions {
  url: string;
  /** null when the password came from ADMIN_PASSWORD */
  password: string | null;
  heading: string;
}

/** The framed block that tells how to log in: after the build output and at the end of start-up. */
export function loginBanner({ url, password, heading }: BannerOptions): string {
  const lines = [
    heading,
    `  Open:      ${url}`,
    `  User name: ${ADMIN_USERNAME}`,
    password ? `  Password:  ${password}` : '  Password:  the value of ADMIN_PASSWORD',
    '  This is a one-time password: you must change it at first login.',
    '  Lost it? Run `npm run reset-admin` for a new one. Stop the server with Ctrl+C.',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const rule = '='.repeat(width);
  return ['', rule, ...lines, rule, ''].join('\n');
}
